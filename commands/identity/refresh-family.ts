import type { RefreshFamilyEvent, RefreshRevocationReason, RefreshTokenRotated } from '../../events/identity.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

/** Commands name tokens by their SHA-256 (hex) only; plaintext refresh tokens never reach a decider. */
export type RefreshFamilyCommand =
  | { type: 'StartFamily'; family_id: string; user_id: string; organisation_id: string; token_hash: string; expires_at: string; at: string }
  | { type: 'Rotate'; presented_hash: string; new_token_hash: string; new_expires_at: string; at: string }
  /** `presented_hash` when a user logs out with the token; omitted when the server ends the session */
  | { type: 'Revoke'; reason: RefreshRevocationReason; presented_hash?: string; at: string };

type RefreshFamilyState =
  | { status: 'none' }
  | {
      status: 'active' | 'revoked';
      family_id: string;
      user_id: string;
      organisation_id: string;
      current_hash: string;
      /** hashes rotated out: presenting one again is reuse */
      used_hashes: string[];
      expires_at: string;
    };

/** One answer for every refusal, so a caller learns nothing about why a token failed. */
export const invalidRefreshToken = () => new DomainError('invalid_refresh_token', 'the refresh token is invalid, expired or revoked');

/**
 * Reuse both writes and refuses: `decide` returns [RefreshFamilyRevoked] (not an error, which
 * would discard the event), the handler appends it, then `assertRotated` turns the outcome into
 * the 401. A handler must call `assertRotated` on the events of every Rotate.
 */
export function assertRotated(events: readonly RefreshFamilyEvent[]): RefreshTokenRotated['data'] {
  const rotated = events.find((e): e is RefreshTokenRotated => e.type === 'RefreshTokenRotated');
  if (!rotated) throw invalidRefreshToken();
  return rotated.data;
}

const after = (a: string, b: string) => Date.parse(a) > Date.parse(b);

export const refreshFamilyDecider: Decider<RefreshFamilyCommand, RefreshFamilyEvent, RefreshFamilyState> = {
  initialState: { status: 'none' },
  decide(command, state) {
    switch (command.type) {
      case 'StartFamily': {
        if (state.status !== 'none') throw new DomainError('refresh_family_exists', 'refresh token family already exists');
        if (!after(command.expires_at, command.at)) throw new Error('a refresh token family must expire after it starts');
        const { type: _type, at, ...data } = command;
        return [{ type: 'RefreshFamilyStarted', data: { ...data, started_at: at } }];
      }
      case 'Rotate': {
        if (state.status === 'none' || state.status === 'revoked') throw invalidRefreshToken();
        const { family_id, user_id, organisation_id } = state;
        if (state.used_hashes.includes(command.presented_hash)) {
          // an old token came back: either side may be the thief, so the whole session ends
          return [{ type: 'RefreshFamilyRevoked', data: { family_id, user_id, organisation_id, reason: 'reuse_detected', revoked_at: command.at } }];
        }
        if (command.presented_hash !== state.current_hash) throw invalidRefreshToken();
        if (!after(state.expires_at, command.at)) throw invalidRefreshToken();
        if (!after(command.new_expires_at, command.at)) throw new Error('a rotated refresh token must expire after it is issued');
        return [{ type: 'RefreshTokenRotated', data: { family_id, token_hash: command.new_token_hash, expires_at: command.new_expires_at, rotated_at: command.at } }];
      }
      case 'Revoke': {
        if (state.status === 'none') throw invalidRefreshToken();
        const presented = command.presented_hash;
        if (presented !== undefined && presented !== state.current_hash && !state.used_hashes.includes(presented)) throw invalidRefreshToken();
        if (state.status === 'revoked') return []; // logging out twice changes nothing
        const { family_id, user_id, organisation_id } = state;
        // logging out with a rotated-out token is still reuse, and the security log should say so
        const reason = presented !== undefined && state.used_hashes.includes(presented) ? 'reuse_detected' : command.reason;
        return [{ type: 'RefreshFamilyRevoked', data: { family_id, user_id, organisation_id, reason, revoked_at: command.at } }];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'RefreshFamilyStarted': {
        const { family_id, user_id, organisation_id, token_hash, expires_at } = event.data;
        return { status: 'active', family_id, user_id, organisation_id, current_hash: token_hash, used_hashes: [], expires_at };
      }
      case 'RefreshTokenRotated':
        if (state.status === 'none') return state;
        return { ...state, current_hash: event.data.token_hash, used_hashes: [...state.used_hashes, state.current_hash], expires_at: event.data.expires_at };
      case 'RefreshFamilyRevoked':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
    }
  },
};
