import type { ParameterizedContext } from 'koa';
import type { IncomingHttpHeaders } from 'node:http';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import type { ValidationIssue } from '../../../schemas/common/errors.ts';
import { parseJsonBody, readRawBody } from './body.ts';
import { RequestValidationError } from './errors.ts';
import { parseIfMatch } from './if-match.ts';
import type { Route, RouteResult } from './route.ts';
import type { PlatformState } from './state.ts';
import type { RouteValidators } from './validators.ts';

export type Headers = Record<string, string | undefined>;
export type Authenticate = (headers: Headers) => Promise<Actor | null>;

function flattenHeaders(h: IncomingHttpHeaders): Headers {
  const out: Headers = {};
  for (const [k, v] of Object.entries(h)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (source[k] !== undefined) out[k] = source[k];
  return out;
}

const MISSING_BODY: ValidationIssue = { loc: ['body'], msg: 'Field required', type: 'missing', input: null };

async function authenticateFor(route: Route, headers: Headers, authenticate: Authenticate): Promise<Actor | null> {
  if (route.auth === 'public') return null;
  const actor = await authenticate(headers);
  if (!actor) throw new DomainError('not_authenticated', 401, 'send an API key in X-Api-Key or a token in Authorization: Bearer');
  return actor;
}

function applyResult(ctx: ParameterizedContext<PlatformState>, result: RouteResult): void {
  ctx.status = result.status;
  // headers first: Koa then keeps a handler's content-type instead of guessing one from the body
  for (const [k, v] of Object.entries(result.headers ?? {})) ctx.set(k, v);
  if (result.body !== undefined) ctx.body = result.body;
}

export interface PipelineOptions {
  authenticate: Authenticate;
  bodyLimitBytes: number;
}

/**
 * The fixed order every route goes through: authenticate, If-Match, read and parse the body,
 * validate path + query + body together (one 422 with every issue), then the handler.
 */
export function routeMiddleware(route: Route, v: RouteValidators, opts: PipelineOptions) {
  return async (ctx: ParameterizedContext<PlatformState, { params: Record<string, string> }>): Promise<void> => {
    const headers = flattenHeaders(ctx.headers);
    const actor = await authenticateFor(route, headers, opts.authenticate);
    const ifMatch = parseIfMatch(headers['if-match']);
    const rawBody = await readRawBody(ctx.req, route.bodyLimitBytes ?? opts.bodyLimitBytes);
    const absent = route.bodyOptional === true && rawBody.length === 0;
    const body = route.body && !absent ? parseJsonBody(rawBody, headers['content-type']) : undefined;
    const params: Record<string, unknown> = { ...ctx.params };
    const query = pick(ctx.query, v.queryKeys);
    const issues = [
      ...v.params(params),
      ...v.query(query),
      ...(route.body && !absent ? (body === undefined ? [MISSING_BODY] : v.body(body)) : []),
    ];
    if (issues.length > 0) throw new RequestValidationError(issues);
    // validated above against the very schemas the handler's types come from
    const req = {
      params,
      query,
      body,
      rawBody,
      headers,
      actor,
      requestId: ctx.state.requestId,
      ifMatch,
      log: ctx.state.log,
    };
    const result = await route.handle(req);
    v.response?.(result.status, result.body);
    applyResult(ctx, result);
  };
}
