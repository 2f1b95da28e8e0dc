import type { Logger } from 'pino';
import type { Actor } from '../../../commands/shared/actor.ts';

/**
 * Who is calling, as far as the request's credentials tell. Resolved at most once per request
 * (the rate limiter and the route both ask), and only when someone asks: health and the docs
 * never cost a credential lookup.
 */
export interface Caller {
  /** how the request presented itself, before the credential was checked */
  credential: 'api_key' | 'bearer' | 'none';
  /** the authenticated actor; null without credentials or when they were refused */
  actor: Actor | null;
  /** why the credential was refused; thrown on a route that needs one */
  refusal: Error | null;
  /** the rate-limit identity: per key, per organisation, per client, or per IP */
  rateKey: string;
  /** the plan that sizes the rate limit; null when unknown (the fallback applies) */
  plan: string | null;
}

/** What the platform middleware keeps on `ctx.state` for the rest of the request. */
export interface PlatformState {
  requestId: string;
  log: Logger;
  caller(): Promise<Caller>;
}
