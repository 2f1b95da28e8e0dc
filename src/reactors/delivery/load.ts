import { invoiceDecider, type KnownInvoice } from '../../../commands/invoices/decider.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import type { EventStore } from '../../eventstore/port.ts';
import { readAndFold } from '../../handling/read-and-fold.ts';

/** The invoice as its stream has it now (reactors decide on the write side, never on a read model). */
export async function currentInvoice(store: EventStore, invoiceId: string): Promise<KnownInvoice | null> {
  const { state } = await readAndFold(store, invoiceStream(invoiceId), invoiceDecider);
  return state.status === 'none' ? null : state;
}
