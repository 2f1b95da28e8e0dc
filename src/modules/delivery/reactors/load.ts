import { invoiceDecider, type InvoiceState, type KnownInvoice } from '../../../../commands/invoices/decider.ts';
import { invoiceStream } from '../../../../events/invoices.ts';
import type { EventStore } from '../../../platform/eventstore/port.ts';
import { readAndFold } from '../../../platform/handling/read-and-fold.ts';

/** The invoice as its stream has it now (reactors decide on the write side, never on a read model). */
export async function currentInvoice(store: EventStore, invoiceId: string): Promise<KnownInvoice | null> {
  return (await loadInvoice(store, invoiceId))?.invoice ?? null;
}

/** The same, with the state and revision read: what a reaction's later steps are decided on (invoiceInTurn). */
export async function loadInvoice(store: EventStore, invoiceId: string): Promise<{ invoice: KnownInvoice; read: { state: InvoiceState; revision: number } } | null> {
  const { state, revision } = await readAndFold(store, invoiceStream(invoiceId), invoiceDecider);
  return state.status === 'none' ? null : { invoice: state, read: { state, revision } };
}
