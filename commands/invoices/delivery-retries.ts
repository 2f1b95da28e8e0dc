/**
 * The delivery legs' retry rules: how many transport attempts a leg gets, how long it waits before
 * each next one, which failures end it at once, and how long a filed document waits for FS's
 * verdict. The delivery worker (src/modules/delivery/schedule) only carries them out: every
 * failed attempt is recorded with the time of the next (DeliveryAttemptFailed.retry_at), and that
 * time is when the worker looks again.
 */
export interface RetryPolicy {
  /** transport attempts per leg, the first included (DELIVERY_MAX_ATTEMPTS, 5) */
  maxAttempts: number;
  /** the wait before the first retry; each further one is 5× longer (DELIVERY_RETRY_BASE_MS, 5 s: 5, 25, 125, 625 s) */
  retryBaseMs: number;
}

/**
 * How an attempt failed, as the network adapter reports it: `transport` may succeed later (a
 * timeout, a refused connection, an error signal saying "try again"); `refused` never can (our
 * side found no such participant, the document cannot be built); `rejected` is a refusal the
 * receiving side returned (invoice.rejected). Only `transport` is retried.
 */
export type AttemptFailure = { kind: 'transport' } | { kind: 'refused' } | { kind: 'rejected'; findings: { rule: string; message: string }[] };

export const isRetried = (failure: AttemptFailure) => failure.kind === 'transport';

/** When attempt `made` + 1 is due after attempt `made` (1-based) failed at `failedAt`; null when none is left. */
export function nextAttemptAt(policy: RetryPolicy, made: number, failedAt: string): string | null {
  if (made >= policy.maxAttempts) return null;
  return new Date(Date.parse(failedAt) + policy.retryBaseMs * 5 ** (made - 1)).toISOString();
}

/**
 * How long FS may take to give its verdict on a filed document before the leg is given up
 * (FS_VERDICT_DEADLINE_HOURS, 72 h): FS decides in minutes; three days without an answer, through
 * a weekend, means the submission was lost on its side, and the operator must file it again or
 * ask FS. Until then a slow or unreachable FS never fails anything.
 */
export function fsVerdictDeadline(submittedAt: string, deadlineMs: number): string {
  return new Date(Date.parse(submittedAt) + deadlineMs).toISOString();
}
