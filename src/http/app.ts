import { openApiWebhooks } from '../webhooks/events/openapi.ts';
import type Koa from 'koa';
import type { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { PERMISSIONS, authorize, type Action } from '../../commands/identity/permissions.ts';
import type { Config } from '../config.ts';
import type { Credentials } from '../identity/credentials.ts';
import type { SigningKeys } from '../identity/signing-keys.ts';
import { jwks, verifyAccessToken } from '../identity/tokens.ts';
import type { Limits } from '../limits/limits.ts';
import { rateLimiter } from '../limits/rate-limiter.ts';
import type { Clock } from '../ports/clock.ts';
import { callerResolver } from './caller.ts';
import { nativeErrors } from './native-errors.ts';
import { createHttpApp, type PlatformState } from './platform/index.ts';
import { API_PREFIX } from './prefix.ts';
import type { Route } from './route.ts';

/** The native API's front door: the modules' routes, and how it knows callers and renders errors. */
export interface AppDeps {
  /** every module's routes, in the root's order */
  routes: Route[];
  config: Config;
  log: Logger;
  clock: Clock;
  readModels: DataSource;
  database: 'pglite' | 'postgres';
  auth: Credentials;
  identity: SigningKeys;
  limits: Limits;
}

/** The service's HTTP app: the modules' routes under /api/v1, plus health, JWKS and the API docs. */
export function createApp(deps: AppDeps, options: { validateResponses?: boolean } = {}): Koa {
  const { auth, clock, config } = deps;
  return createHttpApp({
    routes: deps.routes,
    prefix: API_PREFIX,
    trustProxy: config.identity.trustProxy,
    renderError: nativeErrors,
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
    documents: [{ path: '/.well-known/jwks.json', get: async () => ({ status: 200, body: jwks(await deps.identity.ring()), headers: { 'cache-control': 'public, max-age=300' } }) }],
    middleware: config.identity.rateLimit
      ? [rateLimiter<PlatformState>({
          store: deps.limits.store, log: deps.log,
          identify: async (ctx) => {
            const caller = await ctx.state.caller();
            return { key: caller.rateKey, plan: caller.plan };
          },
        })]
      : [],
    health: async () => {
      await deps.readModels.query('SELECT 1');
      return { database: deps.database, event_store: config.eventstoreUrl ? 'esdb' : 'postgres' };
    },
    logger: deps.log,
    info: {
      title: 'Slovak e-invoicing service',
      version: '1.0.0',
      description: 'Issues, validates, delivers (Peppol BIS Billing 3.0) and files (FS) electronic invoices for Slovak businesses.',
    },
    validateResponses: options.validateResponses,
    webhooks: openApiWebhooks(),
  });
}
