import type { Logger } from 'pino';

/** The logger the limits need: one method, so tests and wiring can pass anything that warns. */
export type WarnLog = Pick<Logger, 'warn'>;

/**
 * A warning logged at most once per `everyMs`: a down store fails every request, and one line per
 * request would flood the log exactly when it is most read. The line says how many were skipped.
 */
export function throttledWarning(log: WarnLog, message: string, everyMs = 10_000, now: () => number = Date.now) {
  let lastAt = -Infinity;
  let skipped = 0;
  return (err: unknown): void => {
    const at = now();
    if (at - lastAt < everyMs) {
      skipped++;
      return;
    }
    log.warn({ err, skipped_since_last: skipped }, message);
    lastAt = at;
    skipped = 0;
  };
}
