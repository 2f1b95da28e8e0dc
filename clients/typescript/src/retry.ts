/**
 * The one request path both clients share: a creating POST gets an Idempotency-Key unless the
 * caller gave one, and an answer that says it may be retried is sent again, the same key and body,
 * after the wait it names (Retry-After), a bounded number of times.
 */
export interface RetryOptions {
  /** attempts in all, the first included (default 3; 1 turns retries off) */
  maxAttempts?: number;
  /** wait before retry n when the answer names none: baseDelayMs * 2^(n-1), with jitter (default 500) */
  baseDelayMs?: number;
  /** a Retry-After longer than this is not waited out: the answer is returned as it is (default 60 000) */
  maxRetryAfterMs?: number;
  /** how to wait (tests pass one that records the delay) */
  sleep?: (ms: number) => Promise<void>;
}

export type Fetch = (request: Request) => Promise<Response>;

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * Native error codes the spec or the service names as worth retrying: the Peppol and FS legs'
 * 502s ("safe to retry the send"), and a repeat that arrived while its first run still ran.
 */
const RETRYABLE_NATIVE_CODES = new Set([
  'peppol_delivery_failed', 'fs_submission_failed', 'company_registry_unavailable', 'participant_lookup_failed', 'idempotency_key_in_progress',
]);

/** Whether an answer invites the same request again: 429 and 503 always, otherwise what its error body says. */
export async function isRetryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status === 503) return true;
  if (response.status < 400) return false;
  const body = await jsonOf(response);
  if (!isRecord(body)) return false;
  // SAPI-SK envelope: { error: { retryable } } (retry only when it says so)
  if (isRecord(body.error)) return body.error.retryable === true;
  // native envelope: { detail: { error } }
  if (isRecord(body.detail) && typeof body.detail.error === 'string') return RETRYABLE_NATIVE_CODES.has(body.detail.error);
  return false;
}

/** Retry-After in milliseconds (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(response: Response, now: number = Date.now()): number | null {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A fetch that adds the Idempotency-Key to POSTs and retries what may be retried. */
export function retryingFetch(fetch: Fetch, options: RetryOptions = {}): Fetch {
  const { maxAttempts = 3, baseDelayMs = 500, maxRetryAfterMs = 60_000, sleep = defaultSleep } = options;
  return async (request) => {
    const keyed = withIdempotencyKey(request);
    for (let attempt = 1; ; attempt++) {
      // each attempt sends its own copy: a body can be read only once
      const response = await fetch(attempt < maxAttempts ? keyed.clone() : keyed);
      if (attempt >= maxAttempts || !(await isRetryable(response))) return response;
      const named = retryAfterMs(response);
      if (named !== null && named > maxRetryAfterMs) return response;
      const wait = named ?? Math.round(baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2));
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}

/** POST is the method that creates: it gets a fresh key (a UUID) unless the caller set one. */
export function withIdempotencyKey(request: Request): Request {
  if (request.method !== 'POST' || request.headers.has(IDEMPOTENCY_HEADER)) return request;
  const headers = new Headers(request.headers);
  headers.set(IDEMPOTENCY_HEADER, crypto.randomUUID());
  return new Request(request, { headers });
}

async function jsonOf(response: Response): Promise<unknown> {
  if (!response.headers.get('content-type')?.includes('json')) return undefined;
  try {
    return await response.clone().json();
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
