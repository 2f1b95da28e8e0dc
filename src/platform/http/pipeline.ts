import type { ParameterizedContext } from 'koa';
import type { IncomingHttpHeaders } from 'node:http';
import type { ValidationIssue } from '../../../schemas/common/errors.ts';
import { parseJsonBody, parseJsonOrFormBody, readRawBody } from './body.ts';
import { PlatformError, RequestValidationError } from './errors.ts';
import { MAX_ISSUES } from './bounded-issues.ts';
import { TRANSPORT_HEADERS } from './headers.ts';
import { parseIfMatch } from './if-match.ts';
import type { Route, RouteResult } from './route.ts';
import { forbiddenTextIssues } from './text.ts';
import type { Caller, PlatformActor, PlatformState } from './state.ts';
import type { RouteValidators } from './validators.ts';

export type Headers = Record<string, string | undefined>;
/** Resolves who calls from the request's headers and address; refusals go in `refusal`, never thrown. */
export type ResolveCaller<Who extends PlatformActor = PlatformActor> = (request: { headers: Headers; ip: string }) => Promise<Caller<Who>>;

export function flattenHeaders(h: IncomingHttpHeaders): Headers {
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

const jwtRequired = () => new PlatformError('jwt_required', 401, '/auth/* routes take a signed-in user\'s access token, not an API key');

async function authenticateFor<Who extends PlatformActor>(route: Route<Who>, caller: () => Promise<Caller<Who>>): Promise<Who | null> {
  if (route.auth === 'public') return null;
  const { credential, actor, refusal } = await caller();
  if (route.auth === 'sign_in') {
    if (credential === 'api_key') throw jwtRequired();
    return null;
  }
  if (route.auth === 'user' && credential === 'api_key') throw jwtRequired();
  if (refusal) throw refusal;
  if (!actor) throw new PlatformError('not_authenticated', 401, 'send an API key in X-Api-Key or a token in Authorization: Bearer');
  if (route.auth === 'user' && actor.type !== 'user') throw new PlatformError('jwt_required', 401, 'this route is for a signed-in user\'s access token');
  return actor;
}

function applyResult(ctx: ParameterizedContext<PlatformState>, result: RouteResult): void {
  ctx.status = result.status;
  // headers first: Koa then keeps a handler's content-type instead of guessing one from the body
  for (const [k, v] of Object.entries(result.headers ?? {})) ctx.set(k, v);
  if (result.body !== undefined) ctx.body = result.body;
}

interface PipelineOptions<Who extends PlatformActor> {
  bodyLimitBytes: number;
  /** tests: a handler reading a request header its route does not declare is a 500 (the document would not name it) */
  undeclaredHeaders?: 'refuse';
  /** throws (403) when the actor may not do what the route's `permission` names */
  authorize(actor: Who, permission: string): void;
}

/**
 * The fixed order every route goes through: authenticate, If-Match, read and parse the body,
 * validate path + query + body together (one 422 with every issue), then the handler. Every
 * string of path, query and body (keys too) is checked for characters no store or XML can
 * carry here, so no route can forget it.
 */
export function routeMiddleware<Who extends PlatformActor>(route: Route<Who>, v: RouteValidators, opts: PipelineOptions<Who>) {
  return async (ctx: ParameterizedContext<PlatformState<Who>, { params: Record<string, string> }>): Promise<void> => {
    ctx.state.route = route.path;
    const headers = flattenHeaders(ctx.headers);
    const actor = await authenticateFor(route, ctx.state.caller);
    if (actor && route.permission) opts.authorize(actor, route.permission);
    const ifMatch = parseIfMatch(headers['if-match']);
    const rawBody = await readRawBody(ctx.req, route.bodyLimitBytes ?? opts.bodyLimitBytes);
    const absent = route.bodyOptional === true && rawBody.length === 0;
    const parse = route.form ? parseJsonOrFormBody : parseJsonBody;
    const body = route.body && !absent ? parse(rawBody, headers['content-type']) : undefined;
    const params: Record<string, unknown> = { ...ctx.params };
    const query = pick(ctx.query, v.queryKeys);
    const issues = [
      ...forbiddenTextIssues('path', params, MAX_ISSUES),
      ...v.params(params),
      ...forbiddenTextIssues('query', query, MAX_ISSUES),
      ...v.query(query),
      ...(route.body && !absent ? (body === undefined ? [MISSING_BODY] : [...forbiddenTextIssues('body', body, MAX_ISSUES), ...v.body(body)]) : []),
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
      ip: ctx.ip,
      requestId: ctx.state.requestId,
      ifMatch,
      log: ctx.state.log,
    };
    const result = await route.handle(opts.undeclaredHeaders === 'refuse' ? declaredOnly(route, req) : req);
    v.response?.(result.status, result.body, result.headers);
    applyResult(ctx, result);
  };
}

/** A handler read a request header its route does not declare in `headerDocs`. */
class UndeclaredHeader extends Error {
  constructor(route: Route<PlatformActor>, header: string) {
    super(`${route.operationId} reads the ${header} header without declaring it in headerDocs: the OpenAPI document would not name it`);
    this.name = 'UndeclaredHeader';
  }
}

/** The request as the handler gets it under response checks: its headers (and `ifMatch`) readable only where declared. */
function declaredOnly<Who extends PlatformActor, R extends { headers: Headers; ifMatch: number | undefined }>(route: Route<Who>, req: R): R {
  const declared = new Set((route.headerDocs ?? []).map((h) => h.name.toLowerCase()));
  const allowed = (name: string) => declared.has(name) || TRANSPORT_HEADERS.has(name) || !/^[a-z0-9-]+$/.test(name);
  const headers = new Proxy(req.headers, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !allowed(key)) throw new UndeclaredHeader(route, key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const ifMatch = req.ifMatch;
  return Object.defineProperties({ ...req, headers }, {
    ifMatch: {
      enumerable: true,
      get() {
        if (!declared.has('if-match')) throw new UndeclaredHeader(route, 'If-Match');
        return ifMatch;
      },
    },
  });
}
