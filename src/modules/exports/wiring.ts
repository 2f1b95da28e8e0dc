import { invoiceExportRoutes, type InvoiceExportDeps } from './routes.ts';
import type { Module } from '../module.ts';

type ExportsModuleDeps = InvoiceExportDeps;

/**
 * The invoice register as a CSV file (plan-gated, streamed). Listed before the invoicing module:
 * its path `…/invoices/export.csv` must be matched before `…/invoices/{invoice_id}`.
 */
export function exportsModule(deps: ExportsModuleDeps): Module {
  return { routes: invoiceExportRoutes(deps), projectors: [], reactors: [] };
}
