import { evolveInvoice, initialInvoiceState } from '../../../../commands/invoices/state.ts';
import type { InvoiceReceived } from '../../../../events/delivery.ts';
import type { InvoiceStatus } from '../../../../events/invoices.ts';
import type { RecordedEvent } from '../../../platform/eventstore/port.ts';
import { domainEvent, foldRecorded } from '../../../platform/handling/read-and-fold.ts';
import { WEBHOOK_SOURCE_EVENT_TYPES } from './catalogue.ts';

/** What a webhook needs to know about the invoice a domain event belongs to, folded from its stream. */
export interface InvoiceFacts {
  invoice_id: string;
  organisation_id: string;
  company_id: string;
  workspace_id: string;
  invoice_number: string | null;
  /** `sent` for a document issued here (invoice or credit note), `received` for an inbound copy */
  direction: 'sent' | 'received';
  /** the supplier's VAT id as the document states it; null when it has none */
  supplier_vat_id: string | null;
  /** SAPI-SK receive handle of an inbound copy; null otherwise (and while the connector holds no copy) */
  provider_document_id: string | null;
  /** the copy's FS filing role once its FS leg started (C2 sent, C3 received); null before */
  reporter_role: 'C2' | 'C3' | null;
  /** the status the invoice had then */
  status: InvoiceStatus;
  /** 380 invoice, 381 credit note, 325 proforma, 384 corrected invoice */
  invoice_type: '380' | '381' | '325' | '384';
  /** a credit note made through the credit-note route: the invoice it credits; null otherwise */
  credited_invoice_id: string | null;
  issue_date: string;
  currency_code: string;
  buyer_name: string;
  buyer_vat_id: string | null;
  total_net: string;
  total_vat: string;
  total_gross: string;
  /** the Peppol message id (SBDH instance identifier) of the current send, or of the inbound message; null before a send */
  peppol_message_id: string | null;
}

const orNull = (s: string | null | undefined): string | null => (s ? s : null);

/**
 * The facts of the invoice whose stream this is (`invoice-{id}`), or null when it holds no
 * invoice. With `asOf`, only what was recorded by then counts: the stream's own events up to that
 * event's revision, another stream's up to its position. Pass the source event, so a reaction
 * repeated later (the stream has grown) builds the same body.
 */
export function invoiceFacts(stream: readonly RecordedEvent[], asOf?: Pick<RecordedEvent, 'streamId' | 'revision' | 'position'>): InvoiceFacts | null {
  const events = asOf
    ? stream.filter((e) => (e.streamId === asOf.streamId ? e.revision <= asOf.revision : e.position <= asOf.position))
    : [...stream];
  const state = foldRecorded({ initialState: initialInvoiceState, evolve: evolveInvoice }, events);
  if (state.status === 'none') return null;
  const received = events.find((e) => e.type === 'InvoiceReceived');
  const { content, totals, delivery } = state;
  return {
    invoice_id: state.invoice_id,
    organisation_id: state.organisation_id,
    company_id: state.company_id,
    workspace_id: state.workspace_id,
    invoice_number: orNull(state.invoice_number),
    direction: state.source === 'peppol' ? 'received' : 'sent',
    supplier_vat_id: orNull(content.supplier.vat_id),
    provider_document_id: received ? domainEvent<InvoiceReceived>(received).data.provider_document_id : null,
    reporter_role: delivery.fs.reporter_role,
    status: state.status,
    invoice_type: content.invoice_type,
    credited_invoice_id: state.credited_invoice?.invoice_id ?? null,
    issue_date: content.issue_date,
    currency_code: content.currency_code,
    buyer_name: content.buyer.name,
    buyer_vat_id: orNull(content.buyer.vat_id),
    total_net: totals.total_net,
    total_vat: totals.total_vat,
    total_gross: totals.total_gross,
    peppol_message_id: delivery.peppol.message_id,
  };
}

/**
 * The invoice whose stream (`invoice-{id}`) a webhook source event belongs to, or null when the
 * event raises no webhook: the fan-out folds that stream for invoiceFacts. InvoiceValidationFailed
 * lives on `invoice_validation-{id}`, so its invoice is not the stream's own.
 */
export function sourceInvoiceId(source: Pick<RecordedEvent, 'type' | 'data'>): string | null {
  if (!WEBHOOK_SOURCE_EVENT_TYPES.includes(source.type)) return null;
  const id = source.type === 'CreditNoteCreated' ? source.data['credit_note_id'] : source.data['invoice_id'];
  return typeof id === 'string' ? id : null;
}
