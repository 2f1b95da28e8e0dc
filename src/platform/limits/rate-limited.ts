import type { Context } from 'koa';

/** The spec's 429 body: top level, not under `detail`, and `plan` rather than current_plan; the front door adds upgrade_url and request_id. */
export interface RateLimitedBody {
  error: 'rate_limit_exceeded';
  retry_after: number;
  /** the plan's requests per minute */
  limit: number;
  plan: string | null;
}

/** Answers 429 with Retry-After (whole seconds) and the spec's body; shared by the limiter and the invalid-key guard. */
export function answerRateLimited(ctx: Pick<Context, 'set' | 'status' | 'body'>, retryAfterSeconds: number, limit: number, plan: string | null): void {
  const body: RateLimitedBody = { error: 'rate_limit_exceeded', retry_after: retryAfterSeconds, limit, plan };
  ctx.status = 429;
  ctx.set('Retry-After', String(retryAfterSeconds));
  ctx.body = body;
}
