import { SAPI_INBOX_EVENT_TYPES, type SapiInboxDocumentAcknowledged, type SapiInboxEvent } from '../../events/sapi-inbox.ts';
import type { EntityManager } from 'typeorm';
import type { Recorded } from '../../src/platform/eventstore/port.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { foldByKey, insertPhases } from '../shared/phases.ts';
import { SapiInbox1764500000700 } from './migration.ts';
import { SAPI_INBOX } from './queries.ts';

/**
 * Acknowledgements of documents stored by earlier batches, one statement: only the first of a document's
 * applies (it moves the status off RECEIVED, which every later one requires).
 */
async function acknowledge(events: readonly Recorded<SapiInboxDocumentAcknowledged>[], tx: EntityManager): Promise<void> {
  if (events.length === 0) return;
  const rows = foldByKey<SapiInboxDocumentAcknowledged['data'], Recorded<SapiInboxDocumentAcknowledged>>(events, (e) => e.data.document_id, (seen, e) => seen ?? e.data);
  // the ids also as an array: the planner then reads the rows by key, never scans the table
  await tx.query(
    `UPDATE sapi_inbox_documents d SET status = 'ACKNOWLEDGED', acknowledged_at = r.acknowledged_at, acknowledged_by = r.acknowledged_by
     FROM jsonb_to_recordset($1::jsonb) AS r(document_id text, acknowledged_by text, acknowledged_at timestamptz)
     WHERE d.document_id = r.document_id AND d.status = 'RECEIVED' AND d.document_id = ANY($2::text[])`,
    [JSON.stringify(rows), rows.map((r) => r.document_id)],
  );
}

/** An acknowledgement folded into the row its document's receipt inserts in the same batch. */
type Acknowledgement = Pick<SapiInboxDocumentAcknowledged['data'], 'acknowledged_by' | 'acknowledged_at'>;

/**
 * The SAPI-SK inbox: a row per inbound document with its metadata, its payload as received, and
 * its status. A received document is inserted once; an acknowledgement marks a RECEIVED one.
 * A batch is at most two statements (insertPhases), whatever its mix: the acknowledgements that
 * follow a document's receipt in the same batch (the usual case, and a rebuild's) go into the row
 * it inserts, rather than rewriting each row (payload and all) with an UPDATE after.
 */
export const sapiInbox = defineProjector<SapiInboxEvent>({
  name: SAPI_INBOX,
  handles: SAPI_INBOX_EVENT_TYPES,
  tables: ['sapi_inbox_documents'],
  migrations: [SapiInbox1764500000700],

  async apply(events, tx) {
    const { early, inserts, late } = insertPhases(events, (e) => e.data.document_id, (e) => e.type === 'SapiInboxDocumentReceived');
    await acknowledge(early, tx);
    if (inserts.length === 0) return;
    // each document's first acknowledgement after its receipt (only the first applies)
    const acknowledged = new Map<string, Acknowledgement>();
    for (const { data } of late) if (!acknowledged.has(data.document_id)) acknowledged.set(data.document_id, data);
    const rows = inserts.map((e) => {
      const ack = acknowledged.get(e.data.document_id);
      return { ...e.data, position: e.position, acknowledged: ack !== undefined, acknowledged_at: ack?.acknowledged_at ?? null, acknowledged_by: ack?.acknowledged_by ?? null };
    });
    // A document already stored (its receipt repeated) keeps its row, and the batch's acknowledgement
    // marks it only if it is still RECEIVED, as the UPDATE after the insert did.
    await tx.query(
      `INSERT INTO sapi_inbox_documents (document_id, position, organisation_id, company_id, invoice_id, peppol_message_id, document_type_id, process_id,
         sender_participant_id, receiver_participant_id, creation_date_time, sender_document_id, payload, status, received_at, acknowledged_at, acknowledged_by)
       SELECT r.document_id, r.position, r.organisation_id, r.company_id, r.invoice_id, r.peppol_message_id, r.document_type_id, r.process_id,
         r.sender_participant_id, r.receiver_participant_id, r.creation_date_time, r.sender_document_id, r.payload,
         CASE WHEN r.acknowledged THEN 'ACKNOWLEDGED' ELSE 'RECEIVED' END, r.received_at, r.acknowledged_at, r.acknowledged_by
       FROM jsonb_to_recordset($1::jsonb) AS r(document_id text, position text, organisation_id uuid, company_id uuid, invoice_id uuid, peppol_message_id text,
         document_type_id text, process_id text, sender_participant_id text, receiver_participant_id text, creation_date_time timestamptz,
         sender_document_id text, payload text, received_at timestamptz, acknowledged boolean, acknowledged_at timestamptz, acknowledged_by text)
       ON CONFLICT (document_id) DO UPDATE SET status = 'ACKNOWLEDGED', acknowledged_at = EXCLUDED.acknowledged_at, acknowledged_by = EXCLUDED.acknowledged_by
         WHERE sapi_inbox_documents.status = 'RECEIVED' AND EXCLUDED.status = 'ACKNOWLEDGED'`,
      [JSON.stringify(rows)],
    );
  },
});
