import { randomUUID } from 'node:crypto';
import { idempotencyDecider, resumesEarlierRequest, type IdempotencyCommand, type IdempotencyState, type StoredAnswer } from '../../../commands/idempotency/decider.ts';
import { checkIdempotencyKey, idempotencyKeyHash } from '../../../commands/idempotency/key.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { idempotencyStream } from '../../../events/idempotency.ts';
import type { EventMetadata } from '../../platform/eventstore/port.ts';
import { appendAt } from '../../platform/handling/append.ts';
import { handleCommand, toNewEvents } from '../../platform/handling/command-handler.ts';
import { keepCompletion, keptCompletion } from './answers.ts';
import { resourceIdOf, withResourceSeed } from '../../platform/ports/ids.ts';
import type { Core } from '../../platform/core.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'>;

/** One request under an Idempotency-Key: the key is scoped (an organisation; SAPI-SK names its own). */
interface IdempotentRequest {
  scope: string;
  /** as the client sent it; checked here (422 at loc header/idempotency-key) */
  key: string;
  operation: string;
  /** requestFingerprint of the operation, path parameters and body */
  fingerprint: string;
  requestId: string;
  metadata: EventMetadata;
  /** told when an answer could not be recorded (the client still gets it) */
  log: { warn(details: object, message: string): void };
}

/** What the work of a request under a key gives: its answer, and whether a repeat gets it again. */
export interface Finished<T> {
  result: T;
  /** recorded answers are replayed; one not recorded releases the key (a retry runs again) */
  record: StoredAnswer | null;
}

export interface Attempt {
  /** the id the request's first minted id will be (its invoice, customer, message id) */
  resourceId: string;
  /** an earlier request with this key and body may have had its effect: look for it before acting again */
  resumed: boolean;
}

export type Outcome<T> = { kind: 'replayed'; answer: StoredAnswer } | { kind: 'ran'; result: T };

type Held = { claimId: string; seed: string; resumed: boolean; stream: string; revision: number; state: IdempotencyState };

/** A kept answer handed out: its own copy, so a caller changing it cannot change the next replay (JSON, as the answer was read from the store). */
const copyOf = (answer: StoredAnswer): StoredAnswer => JSON.parse(JSON.stringify(answer)) as StoredAnswer;

async function claim(deps: Deps, request: IdempotentRequest, keyHash: string): Promise<Held | StoredAnswer> {
  const stream = idempotencyStream(request.scope, keyHash);
  // two parallel requests with one key: the expected revision lets one claim; the other decides
  // again on the stream it lost to (in progress, or the answer)
  let seed = '';
  const command = (): IdempotencyCommand => {
    // not from the ids port: a seed must be unguessable and never itself a seeded (derived) id
    seed = randomUUID();
    return {
      type: 'ClaimIdempotencyKey', key_hash: keyHash, fingerprint: request.fingerprint, operation: request.operation, seed, claim_id: randomUUID(),
      request_id: request.requestId, at: deps.clock.now().toISOString(),
    };
  };
  // a key this process saw completed: the decider decides on that state, which no instance can change
  // before the key expires (idempotency-answers.ts); a replay, or idempotency_key_reused, without a read
  const kept = keptCompletion(deps.store, stream, deps.clock.now());
  if (kept && idempotencyDecider.decide(command(), kept).length === 0 && kept.answer) return copyOf(kept.answer);
  const handled = await handleCommand(deps, stream, idempotencyDecider, command, { metadata: request.metadata, expected: { retry: { onVersionConflict: 2 } } });
  const claimed = handled.events[0];
  if (!claimed || claimed.type !== 'IdempotencyKeyClaimed') {
    if (handled.state.status === 'completed' && handled.state.answer) {
      // kept as read from the store, so a replay from memory is the very answer a read gives
      keepCompletion(deps.store, stream, handled.state);
      return copyOf(handled.state.answer);
    }
    throw new Error(`idempotency claim on ${stream} decided neither a claim nor a replay`);
  }
  return {
    claimId: claimed.data.claim_id, seed: claimed.data.seed, resumed: resumesEarlierRequest(claimed, seed), stream,
    revision: handled.version, state: handled.state,
  };
}

/** Appends to the key's stream at the revision this request left it; a takeover in between wins. */
async function settle(deps: Deps, held: Held, command: IdempotencyCommand, metadata: EventMetadata): Promise<void> {
  const events = idempotencyDecider.decide(command, held.state);
  if (events.length === 0) return;
  await appendAt(deps.store, { streamId: held.stream, events: toNewEvents(deps, events, metadata), at: { revision: held.revision } });
}

/**
 * Runs `work` once per key and request: the first request with a key claims it and runs, a
 * repeat with the same body gets the recorded answer, another body is refused (422
 * idempotency_key_reused), a repeat while the first runs gets 409 idempotency_key_in_progress.
 * With `seedResourceId`, `work` runs with its first minted id derived from the claim's seed, the
 * same again when a dead request's claim is taken over: only for work whose first id is the
 * resource it makes (a create, a send's message id); an id derived again for an event would
 * collide with the first run's. A thrown error or an answer not recorded releases the key.
 */
export async function runIdempotently<T>(
  deps: Deps,
  request: IdempotentRequest,
  work: (attempt: Attempt) => Promise<Finished<T>>,
  options: { seedResourceId: boolean },
): Promise<Outcome<T>> {
  const keyHash = idempotencyKeyHash(checkIdempotencyKey(request.key));
  const held = await claim(deps, request, keyHash);
  if (!('claimId' in held)) return { kind: 'replayed', answer: held };
  const at = () => deps.clock.now().toISOString();
  const release = (reason: string) =>
    settle(deps, held, { type: 'ReleaseIdempotencyKey', claim_id: held.claimId, reason, at: at() }, request.metadata)
      // a release not written leaves the claim to run out its lease: a retry then takes it over
      .catch(() => undefined);
  let finished: Finished<T>;
  try {
    const attempt = { resourceId: resourceIdOf(held.seed), resumed: held.resumed };
    finished = await (options.seedResourceId ? withResourceSeed(held.seed, () => work(attempt)) : work(attempt));
  } catch (error) {
    // the kind of failure only: messages may carry values the events should not keep
    await release(error instanceof DomainError ? error.code : error instanceof Error ? error.name : 'failed');
    throw error;
  }
  if (!finished.record) {
    await release('answer not kept');
    return { kind: 'ran', result: finished.result };
  }
  try {
    await settle(deps, held, { type: 'CompleteIdempotentRequest', claim_id: held.claimId, ...finished.record, at: at() }, request.metadata);
  } catch (error) {
    // the effect happened and this is its answer: the client gets it. A repeat finds the claim in
    // flight until its lease runs out (or taken over already), then resumes it and finds the effect.
    request.log.warn({ err: error, stream: held.stream }, 'idempotent request answered but its answer not recorded');
  }
  return { kind: 'ran', result: finished.result };
}
