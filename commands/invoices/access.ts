import { NotFound, visibleTo, type RequestScope } from '../shared/access.ts';
import type { InvoiceState, KnownInvoice } from './state.ts';

export const invoiceNotFound = (message = 'invoice not found') => new NotFound('invoice_not_found', message);

/**
 * The invoice a client's command acts on: it exists and the caller's scope may see it (the one
 * rule, access.ts). Another organisation's, or another company's through a company's route, is
 * not found, exactly as one that does not exist.
 */
export function invoiceFor(state: InvoiceState, scope: RequestScope): KnownInvoice {
  if (state.status === 'none' || !visibleTo(state, scope)) throw invoiceNotFound();
  return state;
}

/** The invoice a command of the service itself acts on (reactors, network callbacks): it must exist. */
export function existingInvoice(state: InvoiceState): KnownInvoice {
  if (state.status === 'none') throw invoiceNotFound();
  return state;
}
