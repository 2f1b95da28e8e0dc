import type { SapiTokenFamilyEvent, SapiTokenRenewed, SapiTokenRevocationReason } from '../../events/sapi-clients.ts';
import type { Decider } from '../shared/decider.ts';
import { SapiRefusal } from './errors.ts';

/** Commands name refresh tokens by their SHA-256 (hex) only; plaintext never reaches a decider. */
type SapiTokenFamilyCommand =
  | { type: 'StartSapiTokenFamily'; family_id: string; client_id: string; organisation_id: string; scopes: string[]; refresh_hash: string; refresh_expires_at: string; at: string }
  /** `secret_rotated_at`: the client's last rotation, which ends every family started before it */
  | { type: 'RenewSapiToken'; presented_hash: string; new_hash: string; new_expires_at: string; secret_rotated_at: string | null; at: string }
  /**
   * By a refresh token (`presented_hash`, which must be this family's, current or used) or by a
   * verified access token of this family (no hash; the family may have no stream yet).
   */
  | { type: 'RevokeSapiTokenFamily'; family_id: string; client_id: string; presented_hash?: string; at: string };

interface SapiTokenFamily {
  family_id: string;
  client_id: string;
  organisation_id: string;
  scopes: string[];
  current_hash: string;
  /** refresh tokens renewed away: presenting one again is reuse */
  used_hashes: string[];
  refresh_expires_at: string;
  started_at: string;
}

type SapiTokenFamilyState =
  | { status: 'none' }
  | ({ status: 'active' } & SapiTokenFamily)
  /** revoked; `family` is null when an access token's family was revoked without ever having a stream (a token minted outside POST /auth/token) */
  | { status: 'revoked'; family_id: string; client_id: string; family: SapiTokenFamily | null };

/** One answer for every refused refresh token: the caller learns nothing about why. */
export const invalidRefreshToken = () =>
  new SapiRefusal('SAPI-AUTH-001', 'the refresh token is not valid, expired, already used or revoked', [{ field: 'refresh_token', issue: 'invalid' }]);

/**
 * Reuse of a renewed-away refresh token decides the family's revocation (returned, not thrown, so it
 * is written); the handler appends it and then calls this, which refuses.
 */
export function assertRenewed(events: readonly SapiTokenFamilyEvent[]): SapiTokenRenewed['data'] {
  const renewed = events.find((e): e is SapiTokenRenewed => e.type === 'SapiTokenRenewed');
  if (!renewed) throw invalidRefreshToken();
  return renewed.data;
}

const after = (a: string, b: string) => Date.parse(a) > Date.parse(b);

export const sapiTokenFamilyDecider: Decider<SapiTokenFamilyCommand, SapiTokenFamilyEvent, SapiTokenFamilyState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'StartSapiTokenFamily': {
        if (state.status !== 'none') throw new Error(`token family ${command.family_id} already exists`);
        const { type: _type, at, ...data } = command;
        return [{ type: 'SapiTokenFamilyStarted', data: { ...data, started_at: at } }];
      }
      case 'RenewSapiToken': {
        if (state.status !== 'active') throw invalidRefreshToken();
        const { family_id, client_id } = state;
        if (state.used_hashes.includes(command.presented_hash)) {
          // an old refresh token came back: either holder may be a thief, so the whole pair ends
          return [{ type: 'SapiTokenFamilyRevoked', data: { family_id, client_id, reason: 'refresh_token_reuse', revoked_at: command.at } }];
        }
        if (command.presented_hash !== state.current_hash) throw invalidRefreshToken();
        if (!after(state.refresh_expires_at, command.at)) throw invalidRefreshToken();
        // a new secret ends what the old one opened
        if (command.secret_rotated_at !== null && !after(state.started_at, command.secret_rotated_at)) throw invalidRefreshToken();
        return [{ type: 'SapiTokenRenewed', data: { family_id, client_id, refresh_hash: command.new_hash, refresh_expires_at: command.new_expires_at, renewed_at: command.at } }];
      }
      case 'RevokeSapiTokenFamily': {
        const presented = command.presented_hash;
        if (presented !== undefined) {
          // a refresh token that is not this family's revokes nothing
          if (state.status === 'none') return [];
          const family = state.status === 'active' ? state : state.family;
          if (!family || (presented !== family.current_hash && !family.used_hashes.includes(presented))) return [];
        }
        if (state.status === 'revoked') return []; // revoking twice changes nothing
        const reason: SapiTokenRevocationReason = 'revoked';
        const client_id = state.status === 'active' ? state.client_id : command.client_id;
        return [{ type: 'SapiTokenFamilyRevoked', data: { family_id: command.family_id, client_id, reason, revoked_at: command.at } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'SapiTokenFamilyStarted': {
        const d = event.data;
        return {
          status: 'active', family_id: d.family_id, client_id: d.client_id, organisation_id: d.organisation_id, scopes: d.scopes,
          current_hash: d.refresh_hash, used_hashes: [], refresh_expires_at: d.refresh_expires_at, started_at: d.started_at,
        };
      }
      case 'SapiTokenRenewed':
        if (state.status !== 'active') return state;
        return { ...state, current_hash: event.data.refresh_hash, used_hashes: [...state.used_hashes, state.current_hash], refresh_expires_at: event.data.refresh_expires_at };
      case 'SapiTokenFamilyRevoked': {
        const family = state.status === 'active' ? (({ status: _s, ...f }) => f)(state) : null;
        return { status: 'revoked', family_id: event.data.family_id, client_id: event.data.client_id, family };
      }
    }
  },
};
