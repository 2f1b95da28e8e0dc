import Router from '@koa/router';
import type { TProperties, TSchema } from '@sinclair/typebox';
import type { Ajv } from 'ajv';
import Koa from 'koa';
import type { Logger } from 'pino';
import { createBodyAjv, createResponseAjv, createStringAjv } from './ajv.ts';
import { DEFAULT_BODY_LIMIT_BYTES } from './body.ts';
import { DOCS_ASSETS_PATH, DOCS_PATH, OPENAPI_PATH, REDOC_ASSETS_PATH, REDOC_PATH, docsAsset, docsPage, redocAsset, redocPage } from './docs.ts';
import { errorHandler, type ErrorRenderer } from './errors.ts';
import { healthRoute } from './health.ts';
import { clientAddress, trustedProxies } from './client-address.ts';
import { buildOpenApi, withOwnServer, type OpenApiDoor } from './openapi.ts';
import { assertRoutePath, bySpecificity, toRouterPath } from './paths.ts';
import { flattenHeaders, routeMiddleware, type ResolveCaller } from './pipeline.ts';
import { requestContext, type RequestSample } from './request-context.ts';
import type { Route, RouteResult } from './route.ts';
import { callerKind, type Caller, type PlatformActor, type PlatformState } from './state.ts';
import { compileRoute } from './validators.ts';

export interface HttpAppOptions<Who extends PlatformActor = PlatformActor> {
  routes: Route<Who>[];
  /** the API root, '/api/v1' */
  prefix: string;
  /** who calls: asked at most once per request, by the middleware below and by routes that authenticate */
  resolveCaller: ResolveCaller<Who>;
  /** how this front door answers every failure, the platform's own refusals included */
  renderError: ErrorRenderer;
  /** runs after the request context and error handling, before routing: the rate limiter */
  middleware?: Koa.Middleware<PlatformState<Who>>[];
  /** refuses (throws, for the renderer to answer 403) an actor the route's `permission` does not allow; unknown permissions fail the boot */
  authorize?: { check(actor: Who, permission: string): void; known(permission: string): boolean };
  /** public GET documents outside the prefix, such as /.well-known/jwks.json */
  documents?: { path: string; get(): Promise<RouteResult> }[];
  /** take the client address from X-Forwarded-For (the hop the nearest proxy added); only behind a proxy */
  trustProxy?: boolean;
  /**
   * Addresses or CIDRs of the proxies in front (TRUSTED_PROXIES): when set, X-Forwarded-For is read
   * only from these peers (client-address.ts), whatever trustProxy says; every other peer is the client.
   */
  trustedProxies?: readonly string[];
  /** extra fields for GET {prefix}/health */
  health(): Promise<Record<string, unknown>>;
  /** the schemas of those fields a front door documents in its OpenAPI */
  healthFields?: TProperties;
  logger: Logger;
  /** default 1 MiB; a route may set its own */
  bodyLimitBytes?: number;
  /** what the OpenAPI document says beyond the routes: info, tag descriptions, security, error shapes */
  openapi: OpenApiDoor;
  /** shared schemas with an `$id` that route schemas reach through `Type.Ref` */
  schemas?: TSchema[];
  /** the OpenAPI `webhooks` section: requests the service sends, not routes it serves */
  webhooks?: Record<string, unknown>;
  /** where /openapi.json and /docs are served: '' (the host root) or a front door's own root ('/sapi') */
  docsBase?: string;
  /** told of every answered request (metrics) */
  observe?: (sample: RequestSample) => void;
  /** check every handler result against its route's declared responses (tests, development) */
  validateResponses?: boolean;
}

function assertUnique(routes: readonly Route<PlatformActor>[]): void {
  const seen = new Set<string>();
  for (const r of routes) {
    for (const key of [`op ${r.operationId}`, `${r.method} ${r.path.replace(/\{[^}]+\}/g, '{}')}`]) {
      if (seen.has(key)) throw new Error(`duplicate route: ${key}`);
      seen.add(key);
    }
  }
}

function send(ctx: Koa.ParameterizedContext<PlatformState>, result: RouteResult): void {
  ctx.status = result.status;
  for (const [k, v] of Object.entries(result.headers ?? {})) ctx.set(k, v);
  ctx.body = result.body;
}

/**
 * The Koa app every resource router plugs into: routes under `prefix`, health, the OpenAPI
 * document and Swagger UI. Schemas compile here, once; a broken route fails the boot.
 */
export function createHttpApp<Who extends PlatformActor>(opts: HttpAppOptions<Who>): Koa<PlatformState<Who>> {
  const routes: Route<Who>[] = [...opts.routes, healthRoute(opts.health, opts.healthFields)];
  assertUnique(routes);
  routes.forEach(assertRoutePath);
  for (const r of routes) {
    if (r.permission && !opts.authorize?.known(r.permission)) throw new Error(`route ${r.operationId}: unknown permission ${r.permission}`);
  }

  const ajvs = {
    strings: createStringAjv(),
    body: createBodyAjv(),
    ...(opts.validateResponses ? { responses: createResponseAjv() } : {}),
  };
  const shared = (ajv: Ajv) => (opts.schemas ?? []).forEach((schema) => ajv.addSchema(schema));
  [ajvs.strings, ajvs.body, ajvs.responses].forEach((ajv) => ajv && shared(ajv));
  const authorize = opts.authorize;
  const pipeline = {
    bodyLimitBytes: opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    authorize: (actor: Who, permission: string) => authorize?.check(actor, permission),
    ...(opts.validateResponses ? { undeclaredHeaders: 'refuse' as const } : {}),
  };
  const router = new Router<PlatformState<Who>>();
  for (const route of [...routes].sort(bySpecificity)) {
    const handler = routeMiddleware(route, compileRoute(route, ajvs), pipeline);
    router.register(opts.prefix + toRouterPath(route.path), [route.method], handler);
  }

  const openapi = buildOpenApi(routes, { prefix: opts.prefix, door: opts.openapi, schemas: opts.schemas ?? [], webhooks: opts.webhooks });
  const served = new Map<string, string>(); // by origin: the document names the address it was asked at first
  const base = opts.docsBase ?? '';
  router.get(base + OPENAPI_PATH, (ctx) => {
    const origin = `${ctx.protocol}://${ctx.host}`;
    let text = served.get(origin);
    if (text === undefined) {
      text = JSON.stringify(withOwnServer(openapi, { protocol: ctx.protocol, host: ctx.host }, opts.prefix));
      if (served.size >= 16) served.clear(); // a few addresses in practice; arbitrary Host headers cannot grow it
      served.set(origin, text);
    }
    send(ctx, { status: 200, body: text, headers: { 'content-type': 'application/json', vary: 'Host' } });
  });
  router.get(base + DOCS_PATH, (ctx) => send(ctx, docsPage(opts.openapi.info.title, base)));
  for (const document of opts.documents ?? []) router.get(document.path, async (ctx) => send(ctx, await document.get()));
  router.get(`${base}${DOCS_ASSETS_PATH}/:file`, async (ctx) => {
    const asset = await docsAsset(ctx.params.file ?? '', base);
    if (asset) send(ctx, asset);
  });
  router.get(base + REDOC_PATH, (ctx) => send(ctx, redocPage(opts.openapi.info.title, base)));
  router.get(`${base}${REDOC_ASSETS_PATH}/:file`, async (ctx) => {
    const asset = await redocAsset(ctx.params.file ?? '');
    if (asset) send(ctx, asset);
  });

  const app = new Koa<PlatformState<Who>>({ proxy: opts.trustProxy === true, maxIpsCount: 1 });
  // errors while streaming a response (client gone) never reach the error middleware
  app.on('error', (err: unknown) => opts.logger.warn({ err }, 'response stream error'));
  if (opts.trustedProxies && opts.trustedProxies.length > 0) {
    const trusted = trustedProxies(opts.trustedProxies);
    app.use(async (ctx, next) => {
      ctx.request.ip = clientAddress(ctx.socket.remoteAddress ?? '', ctx.get('x-forwarded-for') || undefined, trusted);
      await next();
    });
  }
  app.use(requestContext(opts.logger, opts.observe));
  app.use(errorHandler(opts.renderError));
  app.use(async (ctx, next) => {
    let resolved: Promise<Caller<Who>> | undefined;
    ctx.state.caller = () => (resolved ??= opts.resolveCaller({ headers: flattenHeaders(ctx.headers), ip: ctx.ip }).then((caller) => {
      ctx.state.callerKind = callerKind(caller);
      return caller;
    }));
    await next();
  });
  for (const middleware of opts.middleware ?? []) app.use(middleware);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
