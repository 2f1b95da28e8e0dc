import type { DefaultState, Middleware, ParameterizedContext } from 'koa';
import { rateLimitOf } from '../../../commands/limits/plans.ts';
import type { BucketStore, TakeResult } from './bucket-store.ts';
import { isExemptRequest } from './exempt.ts';
import { answerRateLimited } from './rate-limited.ts';
import { throttledWarning, type WarnLog } from './throttled-warning.ts';

/** Whose bucket a request takes from, and the plan that sizes it. */
interface RateLimitIdentity {
  /**
   * Chosen by the wiring in the spec's order: 'key:<api key id>', 'org:<organisation id>' (JWT),
   * 'sapi:<client id>', else 'ip:<address>' (use ctx.ip with app.proxy and maxIpsCount set, so a
   * caller cannot pick its own bucket through X-Forwarded-For).
   */
  key: string;
  /** the plan's display name; null or unknown gives the fallback 30 rpm / burst 50 */
  plan: string | null;
}

interface RateLimiterOptions<State = DefaultState> {
  store: BucketStore;
  log: WarnLog;
  /** who is calling; null leaves the request unlimited. May throw (401): the error passes on untouched. */
  identify(ctx: ParameterizedContext<State>): Promise<RateLimitIdentity | null>;
  /** more requests to leave alone, besides the spec's exempt paths and OPTIONS, which always are */
  exempt?(ctx: ParameterizedContext<State>): boolean;
  /** a front door with its own error shape (/sapi): the 429 as an error for its renderer, instead of the native body */
  refusal?(retryAfterSeconds: number, limit: number, plan: string | null): Error;
  /** at most one "store unreachable" warning this often (default 10 s) */
  warnEveryMs?: number;
  /** told of every 429 (metrics) */
  onRefused?(): void;
}

/** Bucket keys of the limiter, apart from the invalid-key guard's 'badkey:' ones. */
const REQUEST_BUCKET_PREFIX = 'req:';

/**
 * The spec's rate limit: one token per request from the caller's bucket, sized by its plan; an
 * empty bucket answers 429. No X-RateLimit-* headers, ever. An unreachable store lets requests
 * through: the limiter protects the service, and must not be what takes it down.
 */
export function rateLimiter<State = DefaultState>(options: RateLimiterOptions<State>): Middleware<State> {
  const warn = throttledWarning(options.log, 'rate limit store unreachable: letting requests through unlimited', options.warnEveryMs);
  return async (ctx, next) => {
    if (isExemptRequest(ctx.method, ctx.path) || options.exempt?.(ctx)) return next();
    const identity = await options.identify(ctx);
    if (!identity) return next();
    const { rpm, burst, plan } = rateLimitOf(identity.plan);
    let taken: TakeResult;
    try {
      taken = await options.store.take(REQUEST_BUCKET_PREFIX + identity.key, rpm, burst);
    } catch (err) {
      warn(err);
      return next();
    }
    if (!taken.allowed) {
      options.onRefused?.();
      if (options.refusal) throw options.refusal(taken.retryAfterSeconds, rpm, plan);
      return answerRateLimited(ctx, taken.retryAfterSeconds, rpm, plan);
    }
    return next();
  };
}
