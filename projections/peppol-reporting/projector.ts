import type { EntityManager } from 'typeorm';
import type { CreditNoteCreated } from '../../events/credit-notes.ts';
import type { InvoiceReceived, PeppolMessageSent } from '../../events/delivery.ts';
import type { InvoiceCreated, InvoiceUpdated } from '../../events/invoices.ts';
import type { SapiDocumentAccepted, SapiDocumentSent } from '../../events/sapi-documents.ts';
import type { Recorded } from '../../src/platform/eventstore/port.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { PeppolReporting1766400000000 } from './migration.ts';
import { profileIdOf } from './profile.ts';
import { AS4_TRANSPORT_PROFILE, PEPPOL_REPORTING, type ReportingItem } from './queries.ts';

type ReportingEvent = InvoiceCreated | InvoiceUpdated | CreditNoteCreated | SapiDocumentAccepted | PeppolMessageSent | SapiDocumentSent | InvoiceReceived;

/** Peppol BIS Billing 3.0: the process every native invoice and credit note is sent under (the SBDH writer's). */
const BILLING_PROCESS_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

async function source(tx: EntityManager, sourceId: string, processId: string | null, countryC1: string): Promise<void> {
  await tx.query(
    `INSERT INTO peppol_reporting_sources (source_id, process_id, country_c1) VALUES ($1, $2, $3)
     ON CONFLICT (source_id) DO UPDATE SET process_id = EXCLUDED.process_id, country_c1 = EXCLUDED.country_c1`,
    [sourceId, processId, countryC1.toUpperCase()],
  );
}

async function sourceOf(tx: EntityManager, sourceId: string): Promise<{ process_id: string | null; country_c1: string | null }> {
  const rows: { process_id: string | null; country_c1: string | null }[] = await tx.query('SELECT process_id, country_c1 FROM peppol_reporting_sources WHERE source_id = $1', [sourceId]);
  return rows[0] ?? { process_id: null, country_c1: null };
}

async function record(tx: EntityManager, item: Omit<ReportingItem, 'transport_profile'>): Promise<void> {
  // a message recorded twice (a repeat after a crash) is one document
  await tx.query(
    `INSERT INTO peppol_reporting_items (direction, peppol_message_id, end_user_id, end_user_country, document_type_id, process_id, c1_country,
       c4_country, peer_ap, transport_profile, exchanged_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING`,
    [item.direction, item.peppol_message_id, item.end_user_id, item.end_user_country, item.document_type_id, item.process_id, item.c1_country,
      item.c4_country, item.peer_ap, AS4_TRANSPORT_PROFILE, item.exchanged_at],
  );
}

async function sent(tx: EntityManager, sourceId: string, data: PeppolMessageSent['data'] | SapiDocumentSent['data']): Promise<void> {
  const known = await sourceOf(tx, sourceId);
  // The Sent event carries neither: the SBDH was written from the document's own stream
  // (the invoice's supplier country, or the SAPI send's metadata), which the sources table keeps.
  if (known.country_c1 === null) throw new Error(`no COUNTRY_C1 known for ${sourceId}: its creating event was not seen`);
  await record(tx, {
    direction: 'sent', peppol_message_id: data.peppol_message_id, end_user_id: data.sender_participant_id, end_user_country: known.country_c1,
    document_type_id: data.document_type_id, process_id: known.process_id ?? BILLING_PROCESS_ID, c1_country: known.country_c1, c4_country: null,
    // as4 is absent from version 1 (upcast to null): the sandbox, or a send recorded without its receipt
    peer_ap: data.as4?.receiving_ap ?? null, exchanged_at: data.sent_at,
  });
}

async function received(tx: EntityManager, data: InvoiceReceived['data']): Promise<void> {
  // the envelope's process and COUNTRY_C1, and the sending Access Point, where the event keeps them
  // (events written before do not: the document's ProfileID and seller country, and no peer)
  const processId = data.process_id ?? profileIdOf(data.ubl) ?? BILLING_PROCESS_ID;
  const c4 = data.content.buyer.country_code.toUpperCase();
  await record(tx, {
    direction: 'received', peppol_message_id: data.peppol_message_id, end_user_id: data.receiver_participant_id, end_user_country: c4,
    document_type_id: data.document_type_id, process_id: processId, c1_country: (data.country_c1 ?? data.content.supplier.country_code).toUpperCase(), c4_country: c4,
    peer_ap: data.sending_ap ?? null, exchanged_at: data.received_at,
  });
}

async function applyOne(event: Recorded<ReportingEvent>, tx: EntityManager): Promise<void> {
  switch (event.type) {
    case 'InvoiceCreated':
    case 'InvoiceUpdated':
      return source(tx, event.data.invoice_id, BILLING_PROCESS_ID, event.data.content.supplier.country_code);
    case 'CreditNoteCreated':
      return source(tx, event.data.credit_note_id, BILLING_PROCESS_ID, event.data.content.supplier.country_code);
    case 'SapiDocumentAccepted':
      return source(tx, event.data.document_id, event.data.metadata.process_id, event.data.country_c1);
    case 'PeppolMessageSent':
      return sent(tx, event.data.invoice_id, event.data);
    case 'SapiDocumentSent':
      return sent(tx, event.data.document_id, event.data);
    case 'InvoiceReceived':
      return received(tx, event.data);
  }
}

/**
 * Peppol Reporting: one row per business document our Access Point sent (PeppolMessageSent,
 * SapiDocumentSent) or received (InvoiceReceived; the SAPI inbox copy of the same message is not a
 * second document), with what the EUSR and TSR count it by. Built from stored events only, so it
 * can be rebuilt at any time.
 */
export const peppolReporting = defineProjector<ReportingEvent>({
  name: PEPPOL_REPORTING,
  handles: ['InvoiceCreated', 'InvoiceUpdated', 'CreditNoteCreated', 'SapiDocumentAccepted', 'PeppolMessageSent', 'SapiDocumentSent', 'InvoiceReceived'],
  tables: ['peppol_reporting_items', 'peppol_reporting_sources'],
  migrations: [PeppolReporting1766400000000],

  async apply(events, tx) {
    for (const event of events) await applyOne(event, tx);
  },
});
