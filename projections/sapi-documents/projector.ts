import { evolveSapiDocument, type SapiDocumentView } from '../../commands/sapi/document.ts';
import { SAPI_DOCUMENT_EVENT_TYPES, type SapiDocumentEvent } from '../../events/sapi-documents.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { SapiDocuments1764500000100, SapiDocumentsFsSubmission1767100000000 } from './migration.ts';
import { SAPI_DOCUMENTS } from './queries.ts';

interface Row {
  document_id: string;
  provider_document_id: string;
  client_id: string;
  organisation_id: string;
  company_id: string;
  peppol_message_id: string;
  version: number;
  view: SapiDocumentView;
}

/** Each outbound SAPI document's status, folded with the decider's own evolve (so status shows what the legs decided). */
export const sapiDocuments = defineProjector<SapiDocumentEvent>({
  name: SAPI_DOCUMENTS,
  handles: SAPI_DOCUMENT_EVENT_TYPES,
  tables: ['sapi_documents'],
  migrations: [SapiDocuments1764500000100, SapiDocumentsFsSubmission1767100000000],

  async apply(events, tx) {
    const rows = new Map<string, Row>();
    // the stored views the batch may start from (any document with an event other than its acceptance), read at once
    const ids = [...new Set(events.filter((e) => e.type !== 'SapiDocumentAccepted').map((e) => e.data.document_id))];
    const stored = new Map<string, SapiDocumentView>(ids.length === 0 ? [] : (await tx.query(
      'SELECT document_id::text AS document_id, view FROM sapi_documents WHERE document_id = ANY($1::uuid[])', [ids],
    ) as { document_id: string; view: SapiDocumentView }[]).map((r) => [r.document_id, r.view]));
    for (const event of events) {
      const id = event.data.document_id;
      // a document not yet folded in this batch starts from its stored view, unless the event is its acceptance
      const folded = rows.get(id);
      const base = folded ? folded.view : event.type === 'SapiDocumentAccepted' ? null : (stored.get(id) ?? null);
      const view = evolveSapiDocument(base, event);
      if (!view) continue;
      rows.set(id, {
        document_id: id, provider_document_id: view.provider_document_id, client_id: view.client_id, organisation_id: view.organisation_id,
        company_id: view.company_id, peppol_message_id: view.peppol_message_id, version: event.revision, view,
      });
    }
    if (rows.size === 0) return;
    await tx.query(
      `INSERT INTO sapi_documents (document_id, provider_document_id, client_id, organisation_id, company_id, peppol_message_id, version, view)
       SELECT r.document_id, r.provider_document_id, r.client_id, r.organisation_id, r.company_id, r.peppol_message_id, r.version, r.view
       FROM jsonb_to_recordset($1::jsonb) AS r(document_id uuid, provider_document_id text, client_id text, organisation_id uuid, company_id uuid, peppol_message_id text, version int, view jsonb)
       ON CONFLICT (document_id) DO UPDATE SET version = EXCLUDED.version, view = EXCLUDED.view`,
      [JSON.stringify([...rows.values()])],
    );
  },
});
