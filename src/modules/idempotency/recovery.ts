import type { InvoiceStreamEvent } from '../../../commands/invoices/state.ts';
import { customerStream, type CustomerEvent } from '../../../events/customers.ts';
import { oauthClientStream } from '../../../events/identity.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import { apiKeyStream } from '../../../events/tenancy.ts';
import { createdInvoiceRow, type InvoiceDetailRow } from '../../../projections/invoices/rows.ts';
import type { Invoice } from '../../../schemas/invoices.ts';
import type { Customer } from '../../../schemas/customers.ts';
import type { Registered } from '../customers/index.ts';
import type { RecordedEvent } from '../../platform/eventstore/port.ts';
import { domainEvent } from '../../platform/handling/read-and-fold.ts';
import type { Core } from '../../platform/core.ts';
import { secretShownOnce, type Recover } from './idempotent-route.ts';
import type { RouteResult } from '../../platform/http/index.ts';
import { API_PREFIX } from '../../doors/native/prefix.ts';

/*
 * What a request resumed under its Idempotency-Key answers when its first run got as far as its
 * effect and died before its answer was kept: that run's resource, named by the id its first
 * minted id was, answered as that run would have. Read from the event store (the write side).
 * The routes pass their own body mappings in, so this file needs none of them.
 */

type Deps = Pick<Core, 'store'>;

/** The first event of a stream, with the version the request that wrote it left the stream at. */
function firstWrite(events: RecordedEvent[]): { first: RecordedEvent; version: number } | null {
  const first = events[0];
  if (!first) return null;
  const own = events.filter((e) => e.metadata.correlationId === first.metadata.correlationId);
  return { first, version: own[own.length - 1]?.revision ?? first.revision };
}

export const recoverInvoiceCreate = (deps: Deps, toBody: (row: InvoiceDetailRow) => Invoice): Recover => async ({ actor, resourceId }) => {
  const written = firstWrite(await deps.store.readStream(invoiceStream(resourceId)));
  const created = written && domainEvent<InvoiceStreamEvent>(written.first);
  if (!written || created?.type !== 'InvoiceCreated') return null;
  const data = created.data;
  if (data.organisation_id !== actor.organisationId) return null;
  const invoice = toBody(createdInvoiceRow(data, written.version));
  return { status: 201, body: invoice, headers: { etag: `"${invoice.version}"`, location: `${API_PREFIX}/companies/${data.company_id}/invoices/${invoice.id}` } };
};

export const recoverCustomerCreate = (deps: Deps, toBody: (registered: Registered) => Customer): Recover => async ({ actor, resourceId }) => {
  const written = firstWrite(await deps.store.readStream(customerStream(resourceId)));
  const registered = written && domainEvent<CustomerEvent>(written.first);
  if (!written || registered?.type !== 'CustomerRegistered') return null;
  const { customer_id, organisation_id, company_id, registered_at, ...fields } = registered.data;
  if (organisation_id !== actor.organisationId) return null;
  const body = toBody({ customer_id, organisation_id, company_id, fields, registered_at, version: written.version, position: written.first.position });
  const location = company_id ? `${API_PREFIX}/companies/${company_id}/customers/${customer_id}` : `${API_PREFIX}/customers/${customer_id}`;
  return { status: 201, body, headers: { etag: `"${body.version}"`, location } };
};

/** A send resumed: the invoice was queued with the Peppol message id this request minted. */
export const recoverSend = (deps: Deps, accepted: (invoiceId: string) => RouteResult): Recover => async ({ params, resourceId }) => {
  const invoiceId = params.invoice_id ?? '';
  const events = await deps.store.readStream(invoiceStream(invoiceId));
  const queued = events.map((e) => domainEvent<InvoiceStreamEvent>(e)).some((e) => e.type === 'InvoiceQueued' && e.data.peppol_message_id === resourceId);
  return queued ? accepted(invoiceId) : null;
};

const exists = (deps: Deps, stream: (id: string) => string) => async (id: string) => (await deps.store.readStream(stream(id))).length > 0;
export const recoverApiKeyCreate = (deps: Deps): Recover => secretShownOnce(exists(deps, apiKeyStream));
/** the client id is made from the minted id as createOAuthClient makes it */
export const recoverOAuthClientCreate = (deps: Deps): Recover => secretShownOnce(exists(deps, (id) => oauthClientStream(`oc_${id.replace(/-/g, '')}`)));
