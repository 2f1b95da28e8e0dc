import { invoiceExportRoutes, type InvoiceExportDeps } from './routes.ts';
import type { Module } from '../module.ts';

export type InvoiceExportModuleDeps = InvoiceExportDeps;

/**
 * The invoice register as a CSV file (plan-gated, streamed). Listed before the invoicing module:
 * its path `…/invoices/export.csv` must be matched before `…/invoices/{invoice_id}`.
 */
export function invoiceExportModule(deps: InvoiceExportModuleDeps): Module {
  return { routes: invoiceExportRoutes(deps), projectors: [], reactors: [] };
}
