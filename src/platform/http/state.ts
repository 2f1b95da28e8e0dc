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
  /** for the request's log line: the matched route's template as the OpenAPI document writes it */
  route?: string;
  /** for the request's log line: who called, once someone asked (see callerKind) */
  callerKind?: string;
  /** for the request's log line: the error answer's code */
  errorCode?: string | null;
}

/** A caller as the log line names it: the actor's type (api_key, user, oauth_client, sapi_client), `refused` for credentials refused, `public` without any. */
export function callerKind(caller: Caller): string {
  if (caller.actor) return caller.actor.type;
  return caller.credential === 'none' ? 'public' : 'refused';
}
