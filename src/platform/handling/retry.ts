import { WrongExpectedRevision } from '../eventstore/port.ts';
import { VersionMismatch } from './append.ts';

interface RetryPolicy {
  /** how many runs may follow the first (Infinity: until `retryIf` says no) */
  retries: number;
  /** whether this failure of run `attempt` (0-based) is worth another run; when not, it is thrown */
  retryIf: (error: unknown, attempt: number) => boolean;
  /** waits before the run after `attempt`; none by default (the next run starts at once) */
  backoff?: (attempt: number) => Promise<void> | void;
}

/**
 * The one retry loop: runs `run` until it succeeds, or its failure is not worth another run, or
 * the retries are spent (then the last failure is thrown). `run` gets its 0-based attempt. Every
 * retry in the code goes through here (retryOnConflict for lost races), so each says only what it
 * retries, how often and how long it waits.
 */
export async function retrying<T>(run: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (attempt >= policy.retries || !policy.retryIf(error, attempt)) throw error;
      await policy.backoff?.(attempt);
    }
  }
}

/**
 * A lost race: another write landed on `streamId` (any stream when not given) between its
 * writer's read and its append. Not a client's stale If-Match (VersionMismatch): that is never
 * decided again.
 */
export function lostRace(error: unknown, streamId?: string): error is WrongExpectedRevision {
  return error instanceof WrongExpectedRevision && !(error instanceof VersionMismatch) && (streamId === undefined || error.streamId === streamId);
}

/** A short random pause, longer each attempt, so writers that raced do not race again in step. */
export const jitter = (attempt: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));

/**
 * `run` again after a lost race (lostRace; on `streamId` only, when given), up to `retries` more
 * times; any other failure, and the last lost race, is thrown. `run` reads what it decides on
 * again each time (or catches up on what it holds).
 */
export function retryOnConflict<T>(
  run: (attempt: number) => Promise<T>,
  options: { retries: number; streamId?: string; backoff?: RetryPolicy['backoff'] },
): Promise<T> {
  return retrying(run, { retries: options.retries, retryIf: (error) => lostRace(error, options.streamId), backoff: options.backoff });
}
