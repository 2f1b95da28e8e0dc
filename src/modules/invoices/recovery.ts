import type { InvoiceStreamEvent } from '../../../commands/invoices/state.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import { createdInvoiceRow, type InvoiceDetailRow } from '../../../projections/invoices/rows.ts';
import type { Invoice } from '../../../schemas/invoices.ts';
import { API_PREFIX } from '../../doors/native/prefix.ts';
import type { Core } from '../../platform/core.ts';
import { domainEvent } from '../../platform/handling/read-and-fold.ts';
import { firstWrite, type Recover } from '../idempotency/index.ts';

/** An invoice create resumed under its Idempotency-Key: the invoice its first run wrote, answered as that run would have. */
export const recoverInvoiceCreate = (deps: Pick<Core, 'store'>, toBody: (row: InvoiceDetailRow) => Invoice): Recover => async ({ actor, resourceId }) => {
  const written = firstWrite(await deps.store.readStream(invoiceStream(resourceId)));
  const created = written && domainEvent<InvoiceStreamEvent>(written.first);
  if (!written || created?.type !== 'InvoiceCreated') return null;
  const data = created.data;
  if (data.organisation_id !== actor.organisationId) return null;
  const invoice = toBody(createdInvoiceRow(data, written.version));
  return { status: 201, body: invoice, headers: { etag: `"${invoice.version}"`, location: `${API_PREFIX}/companies/${data.company_id}/invoices/${invoice.id}` } };
};

