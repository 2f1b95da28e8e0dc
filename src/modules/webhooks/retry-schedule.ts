/** At most 5 attempts: the initial one and 4 retries (spec, Delivery rule 4). */
export const MAX_ATTEMPTS = 5;

/**
 * When attempt `failed` + 1 is due after attempt `failed` (1-based) failed: 5^failed seconds later
 * (5, 25, 125, 625 s), times `scale` (WEBHOOK_BACKOFF_SCALE, for tests); null after the fifth
 * failure: the event is dropped. The spec's list also names 3125 s, the wait before a sixth
 * attempt, which the five-attempt cap never reaches.
 */
export function nextAttemptAfter(failed: number, now: Date, scale: number): Date | null {
  if (failed >= MAX_ATTEMPTS) return null;
  return new Date(now.getTime() + 5 ** failed * 1000 * scale);
}
