import type { SapiClientStreamEvent } from '../../events/sapi-clients.ts';
import type { SapiClientIssued } from '../../events/tenancy.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { allowedAddress } from './client-allowlist.ts';
import { SAPI_LOCKOUT, afterFailure, afterLock, failureLocks, lockedFor, noLockout, type LockoutState } from './client-lockout.ts';
import { SapiRefusal } from './errors.ts';

/** Commands of one client's stream. Secrets arrive only as their SHA-256; whether one matched is decided outside (constant time). */
export type SapiClientCommand =
  | { type: 'IssueSapiClient'; data: SapiClientIssued['data'] }
  | { type: 'RotateSapiClientSecret'; client_id: string; organisation_id: string; secret_hash: string; at: string }
  /** `cidrs` already canonical (client-allowlist.ts) */
  | { type: 'SetSapiClientAllowlist'; client_id: string; organisation_id: string; cidrs: string[]; at: string }
  | { type: 'DisableSapiClient'; client_id: string; organisation_id: string; at: string }
  | { type: 'EnableSapiClient'; client_id: string; organisation_id: string; at: string }
  /** POST /sapi/auth/token: `secret_matches` is the constant-time comparison's answer */
  | { type: 'AuthenticateSapiClient'; client_id: string; secret_matches: boolean; ip: string; at: string };

interface SapiClientRecord {
  client_id: string;
  organisation_id: string;
  company_id: string;
  participant_id: string;
  secret_hash: string;
  /** token families started before this are over (ISO), null if never rotated */
  secret_rotated_at: string | null;
  enabled: boolean;
  cidrs: string[];
  lockout: LockoutState;
}

export type SapiClientState = { status: 'none' } | ({ status: 'active' } & SapiClientRecord);

const notFound = () => new DomainError('sapi_client_not_found', 'SAPI-SK client not found');

/** One answer for an unknown client and a wrong secret: the caller learns nothing about which. */
export const badCredentials = () => new SapiRefusal('SAPI-AUTH-001', 'the client credentials are not valid', [{ field: 'client_secret', issue: 'invalid' }]);

export const disabledClient = () => new SapiRefusal('SAPI-DISABLED', 'the SAPI-SK connector is disabled for this client; an administrator can enable it again', []);

export const outsideAllowlist = (ip: string) => new SapiRefusal('SAPI-AUTH-IP', `requests from ${ip} are not allowed for this client`, [{ field: 'ip', issue: 'not in the client\'s allowlist' }]);

/** A client of the caller's organisation, or not found (another organisation's client is a 404, never a 403). */
function own(state: SapiClientState, organisationId: string): SapiClientRecord {
  if (state.status === 'none' || state.organisation_id !== organisationId) throw notFound();
  return state;
}

/**
 * The order of checks at POST /auth/token, once the request itself is valid (its scope known):
 * the address (outside the allowlist: SAPI-AUTH-IP, not counted, so nobody outside the list can
 * lock the client out), the lock (SAPI-AUTH-LOCKED, even with the right secret), the secret (a
 * wrong one is recorded and counted), then whether the client is enabled (SAPI-DISABLED).
 * A wrong secret decides events rather than throwing (a throw would lose them): the handler
 * appends them and then refuses (`assertAuthenticated`).
 */
export const sapiClientDecider: Decider<SapiClientCommand, SapiClientStreamEvent, SapiClientState> = {
  // anybody who knows a client id can add failed attempts to its stream (5 per 15 minutes, for ever);
  // version 2: the lock-out state keeps each failure's address
  snapshot: { version: 2, every: 100 },
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'IssueSapiClient':
        if (state.status !== 'none') throw new DomainError('sapi_client_exists', 'SAPI-SK client already exists');
        return [{ type: 'SapiClientIssued', data: command.data }];
      case 'RotateSapiClientSecret': {
        const client = own(state, command.organisation_id);
        return [{ type: 'SapiClientSecretRotated', data: { client_id: client.client_id, secret_hash: command.secret_hash, rotated_at: command.at } }];
      }
      case 'SetSapiClientAllowlist': {
        const client = own(state, command.organisation_id);
        if (sameList(client.cidrs, command.cidrs)) return [];
        return [{ type: 'SapiClientAllowlistSet', data: { client_id: client.client_id, cidrs: command.cidrs, set_at: command.at } }];
      }
      case 'DisableSapiClient': {
        const client = own(state, command.organisation_id);
        return client.enabled ? [{ type: 'SapiClientDisabled', data: { client_id: client.client_id, disabled_at: command.at } }] : [];
      }
      case 'EnableSapiClient': {
        const client = own(state, command.organisation_id);
        return client.enabled ? [] : [{ type: 'SapiClientEnabled', data: { client_id: client.client_id, enabled_at: command.at } }];
      }
      case 'AuthenticateSapiClient': {
        if (state.status === 'none') throw badCredentials();
        if (!allowedAddress(state.cidrs, command.ip)) throw outsideAllowlist(command.ip);
        const now = Date.parse(command.at);
        const locked = lockedFor(state.lockout, now);
        if (locked > 0) throw lockedOut(locked);
        if (!command.secret_matches) {
          const { failures, locks, ips } = failureLocks(state.lockout, now, command.ip);
          const failed = { type: 'SapiClientAuthenticationFailed', data: { client_id: state.client_id, ip: command.ip, failed_at: command.at } } as const;
          if (!locks) return [failed];
          const until = new Date(now + SAPI_LOCKOUT.lockSeconds * 1000).toISOString();
          return [failed, {
            type: 'SapiClientLockedOut',
            data: {
              client_id: state.client_id, organisation_id: state.organisation_id, company_id: state.company_id, failures, ips, locked_at: command.at,
              locked_until: until,
            },
          }];
        }
        if (!state.enabled) throw disabledClient();
        return [];
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'SapiClientIssued') {
      const d = event.data;
      return {
        status: 'active', client_id: d.client_id, organisation_id: d.organisation_id, company_id: d.company_id, participant_id: d.participant_id,
        secret_hash: d.secret_hash, secret_rotated_at: null, enabled: true, cidrs: [], lockout: noLockout,
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'SapiClientSecretRotated':
        return { ...state, secret_hash: event.data.secret_hash, secret_rotated_at: event.data.rotated_at };
      case 'SapiClientAllowlistSet':
        return { ...state, cidrs: event.data.cidrs };
      case 'SapiClientDisabled':
        return { ...state, enabled: false };
      case 'SapiClientEnabled':
        return { ...state, enabled: true };
      case 'SapiClientAuthenticationFailed':
        return { ...state, lockout: afterFailure(state.lockout, Date.parse(event.data.failed_at), event.data.ip) };
      case 'SapiClientLocked':
      case 'SapiClientLockedOut':
        return { ...state, lockout: afterLock(state.lockout, Date.parse(event.data.locked_until)) };
    }
  },
};

const lockedOut = (seconds: number) =>
  new SapiRefusal('SAPI-AUTH-LOCKED', `the client is locked after repeated failed authentication; retry in ${seconds} s`, [{ field: 'client_id', issue: 'locked' }], seconds);

/**
 * What an AuthenticateSapiClient decided, once its events are appended: nothing (the secret was
 * right: go on), or the refusal. The failure that reaches the threshold already answers
 * SAPI-AUTH-LOCKED, so the client learns at once why the next attempts fail.
 */
export function assertAuthenticated(events: readonly SapiClientStreamEvent[]): void {
  const lock = events.find((e) => e.type === 'SapiClientLockedOut');
  if (lock) throw lockedOut(SAPI_LOCKOUT.lockSeconds);
  if (events.some((e) => e.type === 'SapiClientAuthenticationFailed')) throw badCredentials();
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
