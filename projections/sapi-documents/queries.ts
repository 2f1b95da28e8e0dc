import type { DataSource } from 'typeorm';
import type { SapiDocumentView } from '../../commands/sapi/document.ts';

/** The projector's name (read-your-writes waits on it). */
export const SAPI_DOCUMENTS = 'sapi-documents';

/** A SAPI client's own outbound document by its handle, or null (unknown, or another client's). */
export async function findSapiDocument(db: DataSource, clientId: string, providerDocumentId: string): Promise<SapiDocumentView | null> {
  const rows: { view: SapiDocumentView }[] = await db.query(
    'SELECT view FROM sapi_documents WHERE provider_document_id = $1 AND client_id = $2',
    [providerDocumentId, clientId],
  );
  return rows[0]?.view ?? null;
}

/**
 * The outbound document (its stream id's document id) that went out as this Peppol message, or
 * null: a delivery status for a message no native invoice sent may be a SAPI document's.
 */
export async function sapiDocumentIdByMessage(db: DataSource, peppolMessageId: string): Promise<string | null> {
  const rows: { document_id: string }[] = await db.query('SELECT document_id::text FROM sapi_documents WHERE peppol_message_id = $1', [peppolMessageId]);
  return rows[0]?.document_id ?? null;
}

/** The outbound document whose tax data document was filed under this Peppol message id (its submission), or null. */
export async function sapiDocumentIdByFsSubmission(db: DataSource, submissionId: string): Promise<string | null> {
  const rows: { document_id: string }[] = await db.query("SELECT document_id::text FROM sapi_documents WHERE view->'fs'->>'submission_id' = $1", [submissionId]);
  return rows[0]?.document_id ?? null;
}
