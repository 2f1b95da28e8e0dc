import type { InvoiceStreamEvent } from '../../../commands/invoices/state.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import type { Core } from '../../platform/core.ts';
import { domainEvent } from '../../platform/handling/read-and-fold.ts';
import type { RouteResult } from '../../platform/http/index.ts';
import type { Recover } from '../idempotency/index.ts';

/** A send resumed: the invoice was queued with the Peppol message id this request minted. */
export const recoverSend = (deps: Pick<Core, 'store'>, accepted: (invoiceId: string) => RouteResult): Recover => async ({ params, resourceId }) => {
  const invoiceId = params.invoice_id ?? '';
  const events = await deps.store.readStream(invoiceStream(invoiceId));
  const queued = events.map((e) => domainEvent<InvoiceStreamEvent>(e)).some((e) => e.type === 'InvoiceQueued' && e.data.peppol_message_id === resourceId);
  return queued ? accepted(invoiceId) : null;
};

