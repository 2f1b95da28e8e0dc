import { invoiceRegister } from '../../../projections/invoices/projector.ts';
import type { InvoicingDeps } from './invoices.ts';
import { invoiceDocumentRoutes } from './document-routes.ts';
import { invoiceRoutes } from './routes.ts';
import type { ValidatorSource } from '../../platform/validation/index.ts';
import type { Module } from '../module.ts';

interface InvoicesModuleDeps extends InvoicingDeps {
  /** UBL validation (XSD, EN16931, Peppol and Slovak rules) for the validate route */
  validator: ValidatorSource;
}

/** Invoices: drafts with computed totals, numbering, validation, UBL and history, and the register. */
export function invoicesModule(deps: InvoicesModuleDeps): Module {
  return {
    routes: [...invoiceRoutes(deps), ...invoiceDocumentRoutes(deps)],
    projectors: [invoiceRegister],
    reactors: [],
  };
}
