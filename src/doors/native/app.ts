import { openApiWebhooks } from '../../modules/webhooks/index.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { PERMISSIONS, authorize, type Action } from '../../../commands/identity/permissions.ts';
import type { Config } from '../../platform/config.ts';
import type { Credentials } from '../../modules/identity/index.ts';
import type { SigningKeys } from '../../modules/identity/index.ts';
import { jwks, verifyAccessToken } from '../../modules/identity/index.ts';
import type { Limits } from '../../platform/limits/limits.ts';
import { rateLimiter } from '../../platform/limits/rate-limiter.ts';
import type { Clock } from '../../platform/ports/clock.ts';
import { callerResolver } from '../../modules/identity/index.ts';
import { METRICS_PATH, serveMetrics } from '../../platform/metrics/endpoint.ts';
import type { Metrics } from '../../platform/metrics/metrics.ts';
import type { ValidationStage } from '../../platform/readiness/validation-stage.ts';
import { peppolHealth, type As4Receiver, type PeppolPki } from '../../modules/delivery/index.ts';
import { as4Door, isAs4Path } from '../as4/door.ts';
import { nativeHealthFields } from '../../../schemas/health.ts';
import { nativeErrorRenderer } from './errors.ts';
import { nativeOpenApiDoor } from './openapi.ts';
import { createHttpApp, type PlatformState } from '../../platform/http/index.ts';
import { guideSite } from '../../platform/http/guides.ts';
import { HOME_PATH, homePage } from '../../platform/http/home.ts';
import { packageRoot } from '../../platform/validation/artifacts.ts';
import { API_PREFIX } from './prefix.ts';
import { createSapiApp } from '../sapi/app.ts';
import { sapiCallerResolver, type SapiClientGate } from '../../modules/sapi/index.ts';
import { SAPI_PREFIX, type SapiRoute } from '../sapi/route.ts';
import type { Route } from './route.ts';

/** The native API's front door: the modules' routes, and how it knows callers and renders errors. */
interface AppDeps {
  /** every module's routes, in the root's order */
  routes: Route[];
  /** the SAPI-SK connector's routes and gate (its module's); served under /sapi */
  sapi: { routes: SapiRoute[]; gate?: SapiClientGate };
  config: Config;
  log: Logger;
  clock: Clock;
  readModels: DataSource;
  database: 'pglite' | 'postgres';
  auth: Credentials;
  identity: SigningKeys;
  limits: Limits;
  metrics: Metrics;
  validationStage(): ValidationStage;
  /** PEPPOL_NETWORK=as4: health shows our certificate; null in the sandbox */
  peppolPki: PeppolPki | null;
  /** PEPPOL_NETWORK=as4: the receiving side POST /as4 hands messages to; null in the sandbox (no /as4) */
  as4: As4Receiver | null;
}

/** A Node request listener, as http.createServer takes it. */
type Listener = ReturnType<Koa['callback']>;

/**
 * The service's HTTP front: /sapi and everything below it goes to the SAPI-SK door (its own
 * callers and error envelope), /as4 (PEPPOL_NETWORK=as4) to the AS4 door, the rest to the native API. Both share the process, the limits and
 * the signing keys.
 */
export function createApp(deps: AppDeps, options: { validateResponses?: boolean } = {}): { callback(): Listener } {
  const native = createNativeApp(deps, options);
  const sapi = createSapiApp({
    routes: deps.sapi.routes,
    resolveCaller: sapiCallerResolver({ ring: () => deps.identity.ring(), clock: deps.clock, gate: deps.sapi.gate }),
    limits: deps.config.identity.rateLimit ? deps.limits : null,
    trustProxy: deps.config.identity.trustProxy,
    trustedProxies: deps.config.identity.trustedProxies,
    publicHosts: deps.config.publicHosts,
    log: deps.log,
    health: async () => {
      await deps.readModels.query('SELECT 1');
      return { database: deps.database };
    },
    metrics: deps.metrics,
  }, options);
  return {
    callback() {
      const toNative = native.callback();
      const toSapi = sapi.callback();
      const toAs4 = deps.as4 ? as4Door({ receiver: deps.as4, ...deps.config.peppol.receiving, log: deps.log }) : null;
      return (req, res) => {
        const url = req.url ?? '/';
        if (url === METRICS_PATH || url.startsWith(`${METRICS_PATH}?`)) {
          // served by node:http only (src/doors/native/server.ts), never HTTP/2
          const [request, response] = [req as IncomingMessage, res as ServerResponse];
          return serveMetrics(deps.metrics.registry, deps.config.metricsToken, request, response).catch((err: unknown) => {
            deps.log.error({ err }, 'metrics failed');
            if (!response.headersSent) response.writeHead(500).end();
          });
        }
        // another Access Point's AS4 push: no JSON, no API caller (the message's signature is its credential)
        if (toAs4 && isAs4Path(url)) return toAs4(req as IncomingMessage, res as ServerResponse);
        return isSapiPath(url) ? toSapi(req, res) : toNative(req, res);
      };
    },
  };
}

function isSapiPath(url: string): boolean {
  return url === SAPI_PREFIX || url.startsWith(`${SAPI_PREFIX}/`) || url.startsWith(`${SAPI_PREFIX}?`);
}

/** The native API: the modules' routes under /api/v1, plus health, JWKS and the API docs. */
function createNativeApp(deps: AppDeps, options: { validateResponses?: boolean }): Koa {
  const { auth, clock, config } = deps;
  const openapi = nativeOpenApiDoor(config.publicHosts);
  // the landing page and the guides (README.md, docs/*.md), as they ship with the service
  const site = guideSite(packageRoot());
  const home = homePage(openapi.info.title, site.guides);
  return createHttpApp({
    routes: deps.routes,
    prefix: API_PREFIX,
    trustProxy: config.identity.trustProxy,
    trustedProxies: config.identity.trustedProxies,
    renderError: nativeErrorRenderer({ upgradeUrl: config.upgradeUrl }),
    resolveCaller: callerResolver({
      apiKeys: auth.apiKeys, lastUsed: auth.lastUsed, clock,
      verifyBearer: async (token) => {
        const claims = await verifyAccessToken(await deps.identity.ring(), token, clock.now());
        const type = claims.token_use === 'user' ? 'user' : 'oauth_client';
        return { actor: { type, id: claims.sub, organisationId: claims.org, role: claims.role, sessionId: claims.sid }, plan: claims.plan };
      },
      guard: deps.limits.guard,
      revocations: auth.revocations,
    }),
    authorize: { check: (actor, permission) => authorize(actor, permission as Action), known: (permission) => permission in PERMISSIONS },
    documents: [
      { path: '/.well-known/jwks.json', get: async () => ({ status: 200, body: jwks(await deps.identity.ring()), headers: { 'cache-control': 'public, max-age=300' } }) },
      { path: HOME_PATH, get: async () => home },
      ...site.documents,
    ],
    middleware: config.identity.rateLimit
      ? [rateLimiter<PlatformState>({
          store: deps.limits.store, log: deps.log,
          identify: async (ctx) => {
            const caller = await ctx.state.caller();
            return { key: caller.rateKey, plan: caller.plan };
          },
          onRefused: () => deps.metrics.rateLimitRefusals.inc({ door: 'native' }),
        })]
      : [],
    observe: (s) => deps.metrics.httpRequests.observe({ door: 'native', method: s.method, route: s.route, status: String(s.status) }, s.seconds),
    health: async () => {
      await deps.readModels.query('SELECT 1');
      const validation = deps.validationStage();
      // a certificate about to expire: peers will soon refuse every message, so it is not `ok`
      const peppol = peppolHealth(deps.peppolPki ?? null, deps.clock.now());
      return {
        database: deps.database, event_store: config.eventstoreUrl ? 'esdb' : 'postgres',
        // without the rules no invoice can be checked: the service answers, but is not `ok`
        validation: validation.state, ...(validation.missing.length > 0 ? { validation_missing: validation.missing } : {}),
        peppol: peppol.peppol,
        ...(validation.state === 'unavailable' || peppol.degraded ? { status: 'degraded' } : {}),
      };
    },
    healthFields: nativeHealthFields,
    logger: deps.log,
    openapi,
    validateResponses: options.validateResponses,
    webhooks: openApiWebhooks(),
  });
}
