import type Koa from 'koa';
import type { Services } from '../services.ts';
import { authenticator } from './authenticate.ts';
import { customerRoutes } from './customers.ts';
import { invoiceDeliveryRoutes } from './invoice-delivery.ts';
import { invoiceDocumentRoutes } from './invoice-documents.ts';
import { invoiceRoutes } from './invoices.ts';
import { createHttpApp } from './platform/index.ts';
import { toolRoutes } from './tools.ts';
import { API_PREFIX } from './prefix.ts';

/** The service's HTTP app: every resource router, under /api/v1, plus health and the API docs. */
export function createApp(services: Services, options: { validateResponses?: boolean } = {}): Koa {
  return createHttpApp({
    routes: [
      ...customerRoutes(services), ...invoiceRoutes(services), ...invoiceDocumentRoutes(services), ...invoiceDeliveryRoutes(services),
      ...toolRoutes(services),
    ],
    prefix: API_PREFIX,
    authenticate: authenticator(services.readModels, services.clock),
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
