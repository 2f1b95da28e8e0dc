import Router from '@koa/router';
import type { TSchema } from '@sinclair/typebox';
import type { Ajv } from 'ajv';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Actor } from '../../../commands/shared/actor.ts';
import { createBodyAjv, createResponseAjv, createStringAjv } from './ajv.ts';
import { DEFAULT_BODY_LIMIT_BYTES } from './body.ts';
import { DOCS_ASSETS_PATH, DOCS_PATH, OPENAPI_PATH, docsAsset, docsPage } from './docs.ts';
import { errorHandler } from './errors.ts';
import { healthRoute } from './health.ts';
import { buildOpenApi, type OpenApiInfo } from './openapi.ts';
import { assertRoutePath, bySpecificity, toRouterPath } from './paths.ts';
import { routeMiddleware, type Headers } from './pipeline.ts';
import { requestContext } from './request-context.ts';
import type { Route, RouteResult } from './route.ts';
import type { PlatformState } from './state.ts';
import { compileRoute } from './validators.ts';

export interface HttpAppOptions {
  routes: Route[];
  /** the API root, '/api/v1' */
  prefix: string;
  /** resolves the caller from its headers; null when none was sent. May throw a DomainError (401). */
  authenticate(headers: Headers): Promise<Actor | null>;
  /** extra fields for GET {prefix}/health */
  health(): Promise<Record<string, unknown>>;
  logger: Logger;
  /** default 1 MiB; a route may set its own */
  bodyLimitBytes?: number;
  info: OpenApiInfo;
  /** shared schemas with an `$id` that route schemas reach through `Type.Ref` */
  schemas?: TSchema[];
  /** check every handler result against its route's declared responses (tests, development) */
  validateResponses?: boolean;
}

function assertUnique(routes: readonly Route[]): void {
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
export function createHttpApp(opts: HttpAppOptions): Koa<PlatformState> {
  const routes = [...opts.routes, healthRoute(opts.health)];
  assertUnique(routes);
  routes.forEach(assertRoutePath);

  const ajvs = {
    strings: createStringAjv(),
    body: createBodyAjv(),
    ...(opts.validateResponses ? { responses: createResponseAjv() } : {}),
  };
  const shared = (ajv: Ajv) => (opts.schemas ?? []).forEach((schema) => ajv.addSchema(schema));
  [ajvs.strings, ajvs.body, ajvs.responses].forEach((ajv) => ajv && shared(ajv));
  const pipeline = { authenticate: opts.authenticate, bodyLimitBytes: opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES };
  const router = new Router<PlatformState>();
  for (const route of [...routes].sort(bySpecificity)) {
    const handler = routeMiddleware(route, compileRoute(route, ajvs), pipeline);
    router.register(opts.prefix + toRouterPath(route.path), [route.method], handler);
  }

  const openapi = JSON.stringify(buildOpenApi(routes, { prefix: opts.prefix, info: opts.info, schemas: opts.schemas ?? [] }));
  router.get(OPENAPI_PATH, (ctx) => send(ctx, { status: 200, body: openapi, headers: { 'content-type': 'application/json' } }));
  router.get(DOCS_PATH, (ctx) => send(ctx, docsPage(opts.info.title)));
  router.get(`${DOCS_ASSETS_PATH}/:file`, async (ctx) => {
    const asset = await docsAsset(ctx.params.file ?? '');
    if (asset) send(ctx, asset);
  });

  const app = new Koa<PlatformState>();
  // errors while streaming a response (client gone) never reach the error middleware
  app.on('error', (err: unknown) => opts.logger.warn({ err }, 'response stream error'));
  app.use(requestContext(opts.logger));
  app.use(errorHandler());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
