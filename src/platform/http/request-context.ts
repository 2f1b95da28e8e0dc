import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { PlatformState } from './state.ts';

// a client's id is reused only if it cannot smuggle anything into logs or headers
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** One answered request, for metrics: `route` is the router's template (`/api/v1/companies/:company_id/…`), or `unmatched`. */
export interface RequestSample {
  method: string;
  route: string;
  status: number;
  seconds: number;
}

/**
 * Request id (client's X-Request-Id if sane, else a UUID), a child logger, and one log line per
 * request: method, route template, path, status, the error code of an error answer, the caller's
 * kind and the duration in ms.
 */
export function requestContext(logger: Logger, observe?: (sample: RequestSample) => void): Middleware<PlatformState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ request_id: requestId });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute?.toString();
      // route: the template as the OpenAPI document writes it (a route's), else the router's (the docs), else null;
      // caller: who the request said it was, `public` when nothing asked (health, docs, sign-in)
      const line = {
        method: ctx.method, route: ctx.state.route ?? matched ?? null, path: ctx.path, status: ctx.status,
        ...(ctx.state.errorCode ? { error: ctx.state.errorCode } : {}), caller: ctx.state.callerKind ?? 'public', ms: Math.round(ms * 10) / 10,
      };
      // the template, never the path: ids in paths would make a series per invoice
      observe?.({ method: ctx.method, route: matched ?? 'unmatched', status: ctx.status, seconds: ms / 1000 });
      // 503 is a known condition (database out of reach, connector disabled), not a fault of ours
      if (ctx.status === 503) ctx.state.log.warn(line, 'request');
      else if (ctx.status >= 500) ctx.state.log.error(line, 'request');
      else ctx.state.log.info(line, 'request');
    }
  };
}
