import type { Logger } from 'pino';

/**
 * What the platform needs of an authenticated caller: only whether it is a signed-in user, for
 * `auth: 'user'` routes. Each front door brings its own actor type, which has at least this.
 */
export interface PlatformActor {
  readonly type: string;
}

/**
 * Who is calling, as far as the request's credentials tell. Resolved at most once per request
 * (the rate limiter and the route both ask), and only when someone asks: health and the docs
 * never cost a credential lookup.
 */
export interface Caller<Who extends PlatformActor = PlatformActor> {
  /** how the request presented itself, before the credential was checked */
  credential: 'api_key' | 'bearer' | 'none';
  /** the authenticated actor; null without credentials or when they were refused */
  actor: Who | null;
  /** why the credential was refused; thrown on a route that needs one */
  refusal: Error | null;
  /** the rate-limit identity: per key, per organisation, per client, or per IP */
  rateKey: string;
  /** the plan that sizes the rate limit; null when unknown (the fallback applies) */
  plan: string | null;
}

/** What the platform middleware keeps on `ctx.state` for the rest of the request. */
export interface PlatformState<Who extends PlatformActor = PlatformActor> {
  requestId: string;
  log: Logger;
  caller(): Promise<Caller<Who>>;
}
