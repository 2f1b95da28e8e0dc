import type Koa from 'koa';
import { PERMISSIONS, authorize, type Action } from '../../commands/identity/permissions.ts';
import type { Services } from '../services.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { invoiceExportRoutes } from './invoice-export.ts';
import { authRoutes } from './auth.ts';
import { oauthRoutes } from './oauth.ts';
import { securityEventRoutes } from './security-events.ts';
import { jwks, verifyAccessToken } from '../identity/tokens.ts';
import { callerResolver } from './caller.ts';
import { customerRoutes } from './customers.ts';
import { invoiceDeliveryRoutes } from './invoice-delivery.ts';
import { invoiceDocumentRoutes } from './invoice-documents.ts';
import { invoiceRoutes } from './invoices.ts';
import { createHttpApp, type PlatformState } from './platform/index.ts';
import { nativeErrors } from './native-errors.ts';
import type { Route } from './route.ts';
import { rateLimiter } from '../limits/rate-limiter.ts';
import { toolRoutes } from './tools.ts';
import { API_PREFIX } from './prefix.ts';

/** Every route under /api/v1 (health and the docs aside). */
export function apiRoutes(services: Services): Route[] {
  return [
    ...authRoutes(services), ...apiKeyRoutes(services), ...oauthRoutes(services), ...securityEventRoutes(services), ...customerRoutes(services), ...invoiceExportRoutes(services), ...invoiceRoutes(services), ...invoiceDocumentRoutes(services),
    ...invoiceDeliveryRoutes(services), ...toolRoutes(services),
  ];
}

/** The service's HTTP app: every resource router, under /api/v1, plus health and the API docs. */
export function createApp(services: Services, options: { validateResponses?: boolean } = {}): Koa {
  const { auth, clock, config } = services;
  return createHttpApp({
    routes: apiRoutes(services),
    prefix: API_PREFIX,
    trustProxy: config.identity.trustProxy,
    renderError: nativeErrors,
    resolveCaller: callerResolver({
      apiKeys: auth.apiKeys, lastUsed: auth.lastUsed, clock,
      verifyBearer: async (token) => {
        const claims = await verifyAccessToken(await services.identity.ring(), token, clock.now());
        const type = claims.token_use === 'user' ? 'user' : 'oauth_client';
        return { actor: { type, id: claims.sub, organisationId: claims.org, role: claims.role, sessionId: claims.sid }, plan: claims.plan };
      },
      guard: services.limits.guard,
      revocations: auth.revocations,
    }),
    authorize: { check: (actor, permission) => authorize(actor, permission as Action), known: (permission) => permission in PERMISSIONS },
    documents: [{ path: '/.well-known/jwks.json', get: async () => ({ status: 200, body: jwks(await services.identity.ring()), headers: { 'cache-control': 'public, max-age=300' } }) }],
    middleware: config.identity.rateLimit
      ? [rateLimiter<PlatformState>({
          store: services.limits.store, log: services.log,
          identify: async (ctx) => {
            const caller = await ctx.state.caller();
            return { key: caller.rateKey, plan: caller.plan };
          },
        })]
      : [],
    health: async () => {
      await services.readModels.query('SELECT 1');
      return { database: services.database, event_store: services.config.eventstoreUrl ? 'esdb' : 'postgres' };
    },
    logger: services.log,
    info: {
      title: 'Slovak e-invoicing service',
      version: '1.0.0',
      description: 'Issues, validates, delivers (Peppol BIS Billing 3.0) and files (FS) electronic invoices for Slovak businesses.',
    },
    validateResponses: options.validateResponses,
  });
}
