import { SAPI_INBOX_EVENT_TYPES, type SapiInboxDocumentAcknowledged, type SapiInboxDocumentReceived } from '../../events/sapi-inbox.ts';
import { eventData, runsOfType, type Projector } from '../../src/readmodel/projector.ts';
import { SapiInbox1764500000700 } from './migration.ts';
import { SAPI_INBOX } from './queries.ts';

/**
 * The SAPI-SK inbox: a row per inbound document with its metadata, its payload as received, and
 * its status. A received document is inserted once; an acknowledgement marks a RECEIVED one.
 * Each run of one event type is one statement.
 */
export const sapiInbox: Projector = {
  name: SAPI_INBOX,
  handles: SAPI_INBOX_EVENT_TYPES,
  tables: ['sapi_inbox_documents'],
  migrations: [SapiInbox1764500000700],

  async apply(events, tx) {
    for (const run of runsOfType(events)) {
      if (run.type === 'SapiInboxDocumentReceived') {
        const rows = run.events.map((e) => ({ ...eventData<SapiInboxDocumentReceived>(e), position: e.position }));
        await tx.query(
          `INSERT INTO sapi_inbox_documents (document_id, position, organisation_id, company_id, invoice_id, peppol_message_id, document_type_id, process_id,
             sender_participant_id, receiver_participant_id, creation_date_time, sender_document_id, payload, status, received_at)
           SELECT r.document_id, r.position, r.organisation_id, r.company_id, r.invoice_id, r.peppol_message_id, r.document_type_id, r.process_id,
             r.sender_participant_id, r.receiver_participant_id, r.creation_date_time, r.sender_document_id, r.payload, 'RECEIVED', r.received_at
           FROM jsonb_to_recordset($1::jsonb) AS r(document_id text, position text, organisation_id uuid, company_id uuid, invoice_id uuid, peppol_message_id text,
             document_type_id text, process_id text, sender_participant_id text, receiver_participant_id text, creation_date_time timestamptz,
             sender_document_id text, payload text, received_at timestamptz)
           ON CONFLICT (document_id) DO NOTHING`,
          [JSON.stringify(rows)],
        );
      } else if (run.type === 'SapiInboxDocumentAcknowledged') {
        const rows = run.events.map((e) => eventData<SapiInboxDocumentAcknowledged>(e));
        await tx.query(
          `UPDATE sapi_inbox_documents d SET status = 'ACKNOWLEDGED', acknowledged_at = r.acknowledged_at, acknowledged_by = r.acknowledged_by
           FROM jsonb_to_recordset($1::jsonb) AS r(document_id text, acknowledged_by text, acknowledged_at timestamptz)
           WHERE d.document_id = r.document_id AND d.status = 'RECEIVED'`,
          [JSON.stringify(rows)],
        );
      }
    }
  },
};
