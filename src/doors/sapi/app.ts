import type Koa from 'koa';
import type { Logger } from 'pino';
import { sapiOpenApiDoor } from './openapi.ts';
import { TooManyRequests, createHttpApp, type PlatformState, type PublicHosts } from '../../platform/http/index.ts';
import type { Limits } from '../../platform/limits/limits.ts';
import type { Metrics } from '../../platform/metrics/metrics.ts';
import { rateLimiter } from '../../platform/limits/rate-limiter.ts';
import { CORRELATION_HEADER, sapiErrors } from './errors.ts';
import { SAPI_PREFIX, type SapiActor, type SapiResolveCaller, type SapiRoute } from './route.ts';

interface SapiAppDeps {
  routes: SapiRoute[];
  resolveCaller: SapiResolveCaller;
  limits: Limits | null;
  trustProxy: boolean;
  /** the sandbox and production hosts the OpenAPI document names */
  publicHosts?: PublicHosts;
  /** TRUSTED_PROXIES: X-Forwarded-For only from these peers (the allowlists depend on it) */
  trustedProxies?: readonly string[];
  log: Logger;
  health(): Promise<Record<string, unknown>>;
  metrics: Pick<Metrics, 'httpRequests' | 'rateLimitRefusals'>;
}

// the documents and the probe answer whatever a caller did, as under /api/v1
const EXEMPT = new Set([`${SAPI_PREFIX}/health`, `${SAPI_PREFIX}/openapi.json`, `${SAPI_PREFIX}/docs`, `${SAPI_PREFIX}/redoc`]);
const exempt = (path: string) => EXEMPT.has(path) || path.startsWith(`${SAPI_PREFIX}/docs/`) || path.startsWith(`${SAPI_PREFIX}/redoc/`);

/**
 * The SAPI-SK front door: its routes under /sapi, its callers (SAPI access tokens only), its
 * error envelope for every failure (malformed JSON, unknown routes and 429s included), its rate
 * limit per SAPI client with the plan from the token, and its own OpenAPI document at
 * /sapi/openapi.json (Swagger UI at /sapi/docs).
 */
export function createSapiApp(deps: SapiAppDeps, options: { validateResponses?: boolean } = {}): Koa<PlatformState<SapiActor>> {
  return createHttpApp<SapiActor>({
    routes: deps.routes,
    prefix: SAPI_PREFIX,
    docsBase: SAPI_PREFIX,
    trustProxy: deps.trustProxy,
    trustedProxies: deps.trustedProxies,
    renderError: sapiErrors,
    resolveCaller: deps.resolveCaller,
    middleware: [
      async (ctx, next) => {
        ctx.set(CORRELATION_HEADER, ctx.state.requestId);
        await next();
      },
      ...(deps.limits
      ? [rateLimiter<PlatformState<SapiActor>>({
          store: deps.limits.store, log: deps.log,
          exempt: (ctx) => exempt(ctx.path),
          identify: async (ctx) => {
            const caller = await ctx.state.caller();
            return { key: caller.rateKey, plan: caller.plan };
          },
          refusal: (retryAfterSeconds, limit, plan) => new TooManyRequests(retryAfterSeconds, { limit, plan }),
          onRefused: () => deps.metrics.rateLimitRefusals.inc({ door: 'sapi' }),
        })]
      : []),
    ],
    health: deps.health,
    observe: (s) => deps.metrics.httpRequests.observe({ door: 'sapi', method: s.method, route: s.route, status: String(s.status) }, s.seconds),
    logger: deps.log,
    openapi: sapiOpenApiDoor(exempt, deps.publicHosts),
    validateResponses: options.validateResponses,
  });
}
