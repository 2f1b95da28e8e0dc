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
