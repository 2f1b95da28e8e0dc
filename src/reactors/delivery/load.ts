import { invoiceDecider, type KnownInvoice } from '../../../commands/invoices/decider.ts';
import type { InvoiceStreamEvent } from '../../../commands/invoices/state.ts';
import { fold } from '../../../commands/shared/decider.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import type { EventStore } from '../../eventstore/port.ts';

/** The invoice as its stream has it now (reactors decide on the write side, never on a read model). */
export async function currentInvoice(store: EventStore, invoiceId: string): Promise<KnownInvoice | null> {
  const events = await store.readStream(invoiceStream(invoiceId));
  const state = fold(invoiceDecider, events.map((e) => ({ type: e.type, data: e.data }) as unknown as InvoiceStreamEvent));
  return state.status === 'none' ? null : state;
}
