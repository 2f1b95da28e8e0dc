import type { IdempotencyEvent } from '../../events/idempotency.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';

/**
 * Idempotency-Key rules. A key is bound to its first request (operation and body) for
 * RETENTION_MS; a repeat of that request replays its answer, another request with the key is
 * refused. A claim in flight blocks repeats for LEASE_MS, longer than any request takes; past it
 * the request is presumed dead (a crash between its effect and its answer) and a repeat takes the
 * claim over with the same seed, so the re-run names the same resource and makes no second one.
 */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
export const LEASE_MS = 60_000;
/** what a client told "in progress" is asked to wait before it repeats */
export const IN_PROGRESS_RETRY_AFTER_S = 1;

export type IdempotencyCommand =
  | { type: 'ClaimIdempotencyKey'; key_hash: string; fingerprint: string; operation: string; seed: string; claim_id: string; request_id: string; at: string }
  | {
      type: 'CompleteIdempotentRequest'; claim_id: string; status: number; body: unknown; headers: Record<string, string>; withheld: string[];
      at: string;
    }
  | { type: 'ReleaseIdempotencyKey'; claim_id: string; reason: string; at: string };

export interface StoredAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  withheld: string[];
}

export type IdempotencyState =
  | { status: 'unused' }
  | {
      status: 'in_flight' | 'released' | 'completed';
      fingerprint: string;
      operation: string;
      seed: string;
      claim_id: string;
      claimed_at: string;
      expires_at: string;
      answer: StoredAnswer | null;
    };

const ms = (iso: string) => Date.parse(iso);

function claim(command: Extract<IdempotencyCommand, { type: 'ClaimIdempotencyKey' }>, state: IdempotencyState): IdempotencyEvent[] {
  const claimed = (seed: string, expiresAt: string): IdempotencyEvent[] => [{
    type: 'IdempotencyKeyClaimed',
    data: {
      key_hash: command.key_hash, fingerprint: command.fingerprint, operation: command.operation, seed, claim_id: command.claim_id,
      request_id: command.request_id, claimed_at: command.at, expires_at: expiresAt,
    },
  }];
  // unused, or kept long enough: the key starts afresh, for any request
  if (state.status === 'unused' || ms(command.at) >= ms(state.expires_at)) {
    return claimed(command.seed, new Date(ms(command.at) + RETENTION_MS).toISOString());
  }
  if (state.fingerprint !== command.fingerprint) {
    throw new DomainError('idempotency_key_reused', `this Idempotency-Key was used for another request (${state.operation}, or another body) in the last 24 hours; use a new key for a new request`);
  }
  if (state.status === 'completed') return []; // a repeat: the stored answer is replayed
  if (state.status === 'in_flight' && ms(command.at) - ms(state.claimed_at) < LEASE_MS) {
    throw new DomainError('idempotency_key_in_progress', 'a request with this Idempotency-Key is still in progress; repeat it shortly to get its answer', {
      retry_after: IN_PROGRESS_RETRY_AFTER_S,
    });
  }
  // a released request, or one whose lease ran out: run again on the same seed, within the same retention
  return claimed(state.seed, state.expires_at);
}

export const idempotencyDecider: Decider<IdempotencyCommand, IdempotencyEvent, IdempotencyState> = {
  initialState: { status: 'unused' },
  decide(command, state) {
    switch (command.type) {
      case 'ClaimIdempotencyKey':
        return claim(command, state);
      case 'CompleteIdempotentRequest':
        if (state.status === 'completed' && state.claim_id === command.claim_id) return [];
        // the claim was taken over (this request outlived its lease): the taker answers for the key
        if (state.status !== 'in_flight' || state.claim_id !== command.claim_id) {
          throw new DomainError('idempotency_claim_lost', 'this request no longer holds its Idempotency-Key');
        }
        return [{
          type: 'IdempotentRequestCompleted',
          data: { claim_id: command.claim_id, status: command.status, body: command.body, headers: command.headers, withheld: command.withheld, completed_at: command.at },
        }];
      case 'ReleaseIdempotencyKey':
        if (state.status !== 'in_flight' || state.claim_id !== command.claim_id) return [];
        return [{ type: 'IdempotencyKeyReleased', data: { claim_id: command.claim_id, reason: command.reason, released_at: command.at } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'IdempotencyKeyClaimed': {
        const d = event.data;
        return { status: 'in_flight', fingerprint: d.fingerprint, operation: d.operation, seed: d.seed, claim_id: d.claim_id, claimed_at: d.claimed_at, expires_at: d.expires_at, answer: null };
      }
      case 'IdempotentRequestCompleted': {
        if (state.status === 'unused') return state;
        const { status, body, headers, withheld } = event.data;
        return { ...state, status: 'completed', answer: { status, body, headers, withheld } };
      }
      case 'IdempotencyKeyReleased':
        return state.status === 'unused' ? state : { ...state, status: 'released' };
    }
  },
};

/** A claim that kept an earlier seed resumes a request that may have had its effect already (a takeover, a retry after a release). */
export const resumesEarlierRequest = (claimed: IdempotencyEvent | undefined, freshSeed: string): boolean =>
  claimed?.type === 'IdempotencyKeyClaimed' && claimed.data.seed !== freshSeed;
