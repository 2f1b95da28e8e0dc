import type { BucketStore } from './bucket-store.ts';
import { throttledWarning, type WarnLog } from './throttled-warning.ts';

interface InvalidCredentialGuardOptions {
  store: BucketStore;
  log: WarnLog;
  /** failures an IP may have in a row before it is refused (default 10) */
  maxFailures?: number;
  /** minutes over which those failures are forgiven again (default 5) */
  perMinutes?: number;
}

export interface InvalidCredentialGuard {
  /** whether this IP is refused now; ask before looking a key up, so a blocked IP costs no lookup */
  check(ip: string): Promise<{ blocked: boolean; retryAfterSeconds: number }>;
  /** records one failure under this key; answers whether the key is refused from now on (what a lock-out is recorded on) */
  failed(ip: string): Promise<{ blocked: boolean; retryAfterSeconds: number }>;
  /** `limit` for the 429 body: the failures allowed at once */
  readonly maxFailures: number;
}

const INVALID_CREDENTIAL_PREFIX = 'badkey:';

/**
 * "Repeated invalid API keys from one IP give 429" (spec, authentication rule 8), as a token bucket
 * per IP that only failures take from: `maxFailures` (10) tokens refilling at maxFailures/perMinutes
 * (2 a minute). So 10 bad keys in a burst block the IP; it may try once more every 30 s, and is
 * fully forgiven after 5 quiet minutes. Enough for a client with a mistyped key to notice, far too
 * slow to guess keys. Valid keys never take from it. A down store blocks nobody.
 *
 * Wiring: `const { blocked, retryAfterSeconds } = await guard.check(ctx.ip)`; if blocked answer
 * `answerRateLimited(ctx, retryAfterSeconds, guard.maxFailures, null)`; after a key lookup fails,
 * `await guard.failed(ctx.ip)` and answer 401 as usual.
 */
export function invalidCredentialGuard(options: InvalidCredentialGuardOptions): InvalidCredentialGuard {
  const maxFailures = options.maxFailures ?? 10;
  const rpm = maxFailures / (options.perMinutes ?? 5);
  const warn = throttledWarning(options.log, 'invalid-credential guard store unreachable: not blocking');
  const key = (ip: string) => INVALID_CREDENTIAL_PREFIX + ip;
  return {
    maxFailures,
    async check(ip) {
      try {
        const { allowed, retryAfterSeconds } = await options.store.peek(key(ip), rpm, maxFailures);
        return { blocked: !allowed, retryAfterSeconds };
      } catch (err) {
        warn(err);
        return { blocked: false, retryAfterSeconds: 0 };
      }
    },
    async failed(ip) {
      try {
        // a failure the bucket had no token left for was refused already: it locks nothing anew
        const taken = await options.store.take(key(ip), rpm, maxFailures);
        if (!taken.allowed) return { blocked: false, retryAfterSeconds: 0 };
        const after = await options.store.peek(key(ip), rpm, maxFailures);
        return { blocked: !after.allowed, retryAfterSeconds: after.retryAfterSeconds };
      } catch (err) {
        warn(err);
        return { blocked: false, retryAfterSeconds: 0 };
      }
    },
  };
}

/** A guard that never blocks: for RATE_LIMIT=off, where nothing is limited. */
export const NO_GUARD: InvalidCredentialGuard = {
  check: async () => ({ blocked: false, retryAfterSeconds: 0 }), failed: async () => ({ blocked: false, retryAfterSeconds: 0 }), maxFailures: 0,
};
