/**
 * Token bucket arithmetic, pure: a bucket refills at rpm/60 tokens per second up to `burst`, and
 * each request takes one token. The Redis store runs the same rules in Lua (src/platform/limits/redis-store.ts);
 * keep the two in step.
 *
 * A bucket we have never seen is full, so a bucket that has refilled completely can be forgotten
 * without changing any answer: that is what keeps the stores' memory bounded.
 */
export interface Bucket {
  /** may be fractional: refill is continuous */
  tokens: number;
  updatedAtMs: number;
}

export interface TakeResult {
  allowed: boolean;
  /** 0 when allowed; else whole seconds until one token is back, at least 1 (for Retry-After) */
  retryAfterSeconds: number;
}

/** A negative rpm or burst (the spec's -1) means the caller is never limited. */
export const isUnlimitedRate = (rpm: number, burst: number) => rpm < 0 || burst < 0;

const perMs = (rpm: number) => rpm / 60_000;

/** The bucket as it stands at `nowMs`. A clock that went back refills nothing rather than draining. */
export function refill(bucket: Bucket | undefined, nowMs: number, rpm: number, burst: number): Bucket {
  if (!bucket) return { tokens: burst, updatedAtMs: nowMs };
  const elapsed = Math.max(0, nowMs - bucket.updatedAtMs);
  return { tokens: Math.min(burst, bucket.tokens + elapsed * perMs(rpm)), updatedAtMs: Math.max(nowMs, bucket.updatedAtMs) };
}

function answer(tokens: number, rpm: number): TakeResult {
  if (tokens >= 1) return { allowed: true, retryAfterSeconds: 0 };
  // rpm 0 would never refill; a minute is an honest enough answer for a misconfigured plan
  const seconds = rpm > 0 ? (1 - tokens) / perMs(rpm) / 1000 : 60;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(seconds)) };
}

/** Takes one token if there is one. Returns the answer and the bucket to store (none when unlimited). */
export function take(bucket: Bucket | undefined, nowMs: number, rpm: number, burst: number): TakeResult & { bucket?: Bucket } {
  if (isUnlimitedRate(rpm, burst)) return { allowed: true, retryAfterSeconds: 0 };
  const current = refill(bucket, nowMs, rpm, burst);
  const result = answer(current.tokens, rpm);
  return { ...result, bucket: result.allowed ? { ...current, tokens: current.tokens - 1 } : current };
}

/** Whether a take would be allowed now, without taking. */
export function peek(bucket: Bucket | undefined, nowMs: number, rpm: number, burst: number): TakeResult {
  if (isUnlimitedRate(rpm, burst)) return { allowed: true, retryAfterSeconds: 0 };
  return answer(refill(bucket, nowMs, rpm, burst).tokens, rpm);
}

/** When the bucket is full again and so may be forgotten; Infinity if it never refills. */
export function fullAtMs(bucket: Bucket, rpm: number, burst: number): number {
  if (bucket.tokens >= burst) return bucket.updatedAtMs;
  if (rpm <= 0) return Infinity;
  return bucket.updatedAtMs + Math.ceil((burst - bucket.tokens) / perMs(rpm));
}
