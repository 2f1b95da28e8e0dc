import type { IdempotencyState } from '../../../commands/idempotency/decider.ts';
import type { EventStore } from '../../platform/eventstore/port.ts';

/**
 * Completed Idempotency-Key streams this process has seen, so a repeat is decided without reading
 * the key's stream again (a replay was a query per request: most of a SAPI-SK replay's cost).
 *
 * Sound because a completed key's state cannot change before it expires, on any instance: the
 * decider answers every claim on it with a replay (same request) or idempotency_key_reused (another
 * one), a completion of its own claim with nothing, a release with nothing, and nothing deletes an
 * idempotency stream. Only at `expires_at` may a claim start the key afresh, so an entry is used
 * only until EXPIRY_MARGIN_MS before then: near and past the end of the retention the stream
 * decides again, also when another instance's clock runs a little ahead of this one's. The rule is
 * still the decider's: a hit is decided by idempotencyDecider on the kept state (callers pass it).
 *
 * One memo per event store (a WeakMap on the store object): another database, or another service
 * in the same process (tests), never shares answers. Bounded; the oldest entries go first.
 */
export const EXPIRY_MARGIN_MS = 5 * 60_000;
export const MAX_KEPT = 10_000;

type CompletedState = Exclude<IdempotencyState, { status: 'unused' }> & { status: 'completed' };

const memos = new WeakMap<EventStore, Map<string, CompletedState>>();

function memoOf(store: EventStore): Map<string, CompletedState> {
  let memo = memos.get(store);
  if (!memo) memos.set(store, (memo = new Map()));
  return memo;
}

/** The completed state kept for the key's stream, while it is still safely before the key's expiry; null otherwise. */
export function keptCompletion(store: EventStore, stream: string, now: Date): CompletedState | null {
  const memo = memos.get(store);
  const kept = memo?.get(stream);
  if (!memo || !kept) return null;
  if (now.getTime() < Date.parse(kept.expires_at) - EXPIRY_MARGIN_MS) return kept;
  memo.delete(stream);
  return null;
}

/** Keeps the state of a key's stream once it is completed (any other state may still change, and is not kept). */
export function keepCompletion(store: EventStore, stream: string, state: IdempotencyState): void {
  if (state.status !== 'completed' || !state.answer) return;
  const memo = memoOf(store);
  memo.delete(stream);
  if (memo.size >= MAX_KEPT) {
    const oldest = memo.keys().next();
    if (!oldest.done) memo.delete(oldest.value);
  }
  memo.set(stream, { ...state, status: 'completed' });
}
