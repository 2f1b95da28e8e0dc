import type { ValueClaimed } from '../../events/claims.ts';
import type { Decider } from './decider.ts';
import type { DomainError } from './domain-error.ts';

/**
 * Write-side uniqueness. A value is claimed (one stream per scope and value) before or with the
 * stream of its holder: together in one append where the store can start several streams at once
 * (Postgres), one after the other where it cannot (EventStoreDB). There a crash between the two
 * appends can leave a claim whose holder never came to be; such a claim is taken over once it is
 * older than ORPHANED_AFTER_MS and its holder still does not exist (read by the handler). A younger
 * one may belong to a creation still in flight, so it blocks like any other.
 */
const ORPHANED_AFTER_MS = 60_000;

export type ClaimValue = {
  type: 'ClaimValue';
  scope: string;
  value: string;
  holder_id: string;
  /** whether the current holder exists (read by the handler) */
  holder_exists: boolean;
  at: string;
};

export type ClaimState = { holder: string | null; claimed_at: string | null };

function orphaned(state: ClaimState, command: ClaimValue): boolean {
  if (command.holder_exists || state.claimed_at === null) return false;
  return Date.parse(command.at) - Date.parse(state.claimed_at) > ORPHANED_AFTER_MS;
}

/** A claim decider whose refusal is the spec's error for that kind of value. */
export function uniqueClaimDecider(conflict: (value: string, holder: string) => DomainError): Decider<ClaimValue, ValueClaimed, ClaimState> {
  return {
    initialState: { holder: null, claimed_at: null },
    decide(command, state) {
      if (state.holder === command.holder_id) return [];
      if (state.holder !== null && !orphaned(state, command)) throw conflict(command.value, state.holder);
      return [
        {
          type: 'ValueClaimed',
          data: { scope: command.scope, value: command.value, holder_id: command.holder_id, claimed_at: command.at },
        },
      ];
    },
    evolve: (_state, event) => ({ holder: event.data.holder_id, claimed_at: event.data.claimed_at }),
  };
}
