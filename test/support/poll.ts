import { inspect } from 'node:util';

/** How long `eventually` waits by default: a condition, not a speed; a loaded 2-core machine needs room. */
export const EVENTUALLY_MS = 60_000;

export interface Polling {
  /** give up after this many milliseconds (default EVENTUALLY_MS) */
  withinMs?: number;
  /** between reads (default 50 ms) */
  everyMs?: number;
  /** what is waited for, for the failure (default: the predicate's source) */
  what?: string;
}

/**
 * Polls `read` until `done` holds for its value, and returns that value. Fails when the time is
 * up, naming the condition and the last value read, so a test never goes on with a value that
 * does not hold.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, polling: Polling = {}): Promise<T> {
  const { withinMs = EVENTUALLY_MS, everyMs = 50, what = done.toString() } = polling;
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const last = inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 500 });
      throw new Error(`eventually: ${what} did not hold within ${withinMs} ms; last value: ${last}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
