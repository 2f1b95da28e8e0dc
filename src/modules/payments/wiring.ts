import { payments } from '../../../projections/payments/projector.ts';
import { paymentRoutes, type PaymentRouteDeps } from './routes.ts';
import type { Module } from '../module.ts';

/** Payments on invoices and refunds on credit notes (issue 16 item 8), with their read model. */
export function paymentsModule(deps: PaymentRouteDeps): Module {
  return { routes: paymentRoutes(deps), projectors: [payments], reactors: [] };
}
