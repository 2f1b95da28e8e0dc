import { setTimeout as sleep } from 'node:timers/promises';

/**
 * One leg's transport attempts with backoff: attempt n+1 waits base × 5^(n-1) (5 s, 25 s, 125 s, …
 * by default, the spec's webhook schedule). Every failed attempt is recorded before the wait, the
 * last one without a retry time; a permanent refusal ends the leg at once. Attempts already made
 * (recorded in the stream) count, so a restart continues the numbering instead of starting over.
 */
export interface AttemptPolicy {
  maxAttempts: number;
  retryBaseMs: number;
}

/** A failure carries the last error (a permanent refusal may say more than its message: a receiver's findings). */
export type AttemptOutcome<T> = { ok: true; value: T } | { ok: false; permanent: boolean; reason: string; error?: unknown };

export async function withAttempts<T>(
  policy: AttemptPolicy,
  done: number,
  attempt: () => Promise<T>,
  classify: (error: unknown) => 'retry' | 'permanent',
  record: { failed(reason: string, retryAt: Date | null): Promise<void>; now(): Date },
  signal: AbortSignal,
): Promise<AttemptOutcome<T>> {
  if (done >= policy.maxAttempts) return { ok: false, permanent: false, reason: 'no attempts left' }; // the last failure was recorded before a restart
  for (let made = done; ; ) {
    try {
      return { ok: true, value: await attempt() };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (classify(error) === 'permanent') return { ok: false, permanent: true, reason, error };
      made++;
      const last = made >= policy.maxAttempts;
      const wait = policy.retryBaseMs * 5 ** (made - 1);
      await record.failed(reason, last ? null : new Date(record.now().getTime() + wait));
      if (last) return { ok: false, permanent: false, reason, error };
      await sleep(wait, undefined, { signal });
    }
  }
}
