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

/** What a send needs but its Sent event does not carry: the process and COUNTRY_C1 its SBDH was written with. */
interface Source {
  source_id: string;
  process_id: string | null;
  country_c1: string | null;
}

type Item = Omit<ReportingItem, 'transport_profile'>;

function sentItem(sourceId: string, known: Source | undefined, data: PeppolMessageSent['data'] | SapiDocumentSent['data']): Item {
  // The Sent event carries neither: the SBDH was written from the document's own stream
  // (the invoice's supplier country, or the SAPI send's metadata), which the sources table keeps.
  const country = known?.country_c1 ?? null;
  if (country === null) throw new Error(`no COUNTRY_C1 known for ${sourceId}: its creating event was not seen`);
  return {
    direction: 'sent', peppol_message_id: data.peppol_message_id, end_user_id: data.sender_participant_id, end_user_country: country,
    document_type_id: data.document_type_id, process_id: known?.process_id ?? BILLING_PROCESS_ID, c1_country: country, c4_country: null,
    // as4 is absent from version 1 (upcast to null): the sandbox, or a send recorded without its receipt
    peer_ap: data.as4?.receiving_ap ?? null, exchanged_at: data.sent_at,
  };
}

function receivedItem(data: InvoiceReceived['data']): Item {
  // the envelope's process and COUNTRY_C1, and the sending Access Point, where the event keeps them
  // (events written before do not: the document's ProfileID and seller country, and no peer)
  const processId = data.process_id ?? profileIdOf(data.ubl) ?? BILLING_PROCESS_ID;
  const c4 = data.content.buyer.country_code.toUpperCase();
  return {
    direction: 'received', peppol_message_id: data.peppol_message_id, end_user_id: data.receiver_participant_id, end_user_country: c4,
    document_type_id: data.document_type_id, process_id: processId, c1_country: (data.country_c1 ?? data.content.supplier.country_code).toUpperCase(), c4_country: c4,
    peer_ap: data.sending_ap ?? null, exchanged_at: data.received_at,
  };
}

/** The source an event of a document's creation sets (null: the event sets none). */
function sourceSet(event: Recorded<ReportingEvent>): Source | null {
  const source = (source_id: string, process_id: string | null, country: string): Source => ({ source_id, process_id, country_c1: country.toUpperCase() });
  switch (event.type) {
    case 'InvoiceCreated':
    case 'InvoiceUpdated':
      return source(event.data.invoice_id, BILLING_PROCESS_ID, event.data.content.supplier.country_code);
    case 'CreditNoteCreated':
      return source(event.data.credit_note_id, BILLING_PROCESS_ID, event.data.content.supplier.country_code);
    case 'SapiDocumentAccepted':
      return source(event.data.document_id, event.data.metadata.process_id, event.data.country_c1);
    default:
      return null;
  }
}

const sentSource = (event: Recorded<ReportingEvent>): string | null =>
  event.type === 'PeppolMessageSent' ? event.data.invoice_id : event.type === 'SapiDocumentSent' ? event.data.document_id : null;

/**
 * The batch folded in order, as the events one by one would write it, then written in two
 * statements: the sources it set (each one's last), and the items it recorded (a message recorded
 * twice, a repeat after a crash, is one document: the first stays). The sources its sends read
 * and no earlier event of the batch set are read at once first.
 */
async function applyBatch(events: readonly Recorded<ReportingEvent>[], tx: EntityManager): Promise<void> {
  const setEarlier = new Set<string>();
  const toRead = new Set<string>();
  for (const event of events) {
    const set = sourceSet(event);
    if (set) setEarlier.add(set.source_id);
    const read = sentSource(event);
    if (read !== null && !setEarlier.has(read)) toRead.add(read);
  }
  const sources = new Map<string, Source>();
  if (toRead.size > 0) {
    const stored: Source[] = await tx.query('SELECT source_id, process_id, country_c1 FROM peppol_reporting_sources WHERE source_id = ANY($1::text[])', [[...toRead]]);
    for (const row of stored) sources.set(row.source_id, row);
  }
  const changed = new Map<string, Source>();
  const items = new Map<string, Item>();
  const record = (item: Item) => {
    const key = `${item.direction} ${item.peppol_message_id} ${item.end_user_id}`;
    if (!items.has(key)) items.set(key, item);
  };
  for (const event of events) {
    const set = sourceSet(event);
    if (set) {
      sources.set(set.source_id, set);
      changed.set(set.source_id, set);
    } else if (event.type === 'PeppolMessageSent') {
      record(sentItem(event.data.invoice_id, sources.get(event.data.invoice_id), event.data));
    } else if (event.type === 'SapiDocumentSent') {
      record(sentItem(event.data.document_id, sources.get(event.data.document_id), event.data));
    } else if (event.type === 'InvoiceReceived') {
      record(receivedItem(event.data));
    }
  }
  if (changed.size > 0) {
    await tx.query(
      `INSERT INTO peppol_reporting_sources (source_id, process_id, country_c1)
       SELECT r.source_id, r.process_id, r.country_c1 FROM jsonb_to_recordset($1::jsonb) AS r(source_id text, process_id text, country_c1 text)
       ON CONFLICT (source_id) DO UPDATE SET process_id = EXCLUDED.process_id, country_c1 = EXCLUDED.country_c1`,
      [JSON.stringify([...changed.values()])],
    );
  }
  if (items.size > 0) {
    await tx.query(
      `INSERT INTO peppol_reporting_items (direction, peppol_message_id, end_user_id, end_user_country, document_type_id, process_id, c1_country,
         c4_country, peer_ap, transport_profile, exchanged_at)
       SELECT r.direction, r.peppol_message_id, r.end_user_id, r.end_user_country, r.document_type_id, r.process_id, r.c1_country,
         r.c4_country, r.peer_ap, $2, r.exchanged_at
       FROM jsonb_to_recordset($1::jsonb) AS r(direction text, peppol_message_id text, end_user_id text, end_user_country text, document_type_id text,
         process_id text, c1_country text, c4_country text, peer_ap text, exchanged_at timestamptz)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify([...items.values()]), AS4_TRANSPORT_PROFILE],
    );
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

  // a batch in at most three statements, whatever its size (a rebuild's thousands of events)
  apply: applyBatch,
});
