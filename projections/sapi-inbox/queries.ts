import type { DataSource } from 'typeorm';
import type { InboxStatus } from '../../commands/sapi/inbox.ts';

/** The projector's name: what read-your-writes waits for. */
export const SAPI_INBOX = 'sapi-inbox';

/** One inbound document as the list shows it (its payload is read only by the detail). */
export interface InboxItem {
  document_id: string;
  position: string;
  document_type_id: string;
  process_id: string;
  sender_participant_id: string;
  receiver_participant_id: string;
  creation_date_time: string;
  status: InboxStatus;
  received_at: string;
}

export interface InboxDocument extends InboxItem {
  sender_document_id: string;
  invoice_id: string;
  peppol_message_id: string;
  payload: string;
  acknowledged_at: string | null;
}

const ITEM = `document_id, position, document_type_id, process_id, sender_participant_id, receiver_participant_id, creation_date_time, status, received_at`;
const iso = (value: Date | string) => new Date(value).toISOString();

type Row<T> = Omit<T, 'creation_date_time' | 'received_at' | 'acknowledged_at'> & { creation_date_time: Date; received_at: Date; acknowledged_at?: Date | null };

const item = (row: Row<InboxItem>): InboxItem => ({ ...row, creation_date_time: iso(row.creation_date_time), received_at: iso(row.received_at) });

/**
 * Whether the SAPI-SK connector collects inbound documents for the company: it has a SAPI client
 * (sapi_clients, the api-keys read model). A disabled client still collects.
 */
export async function companyHasSapiClient(db: DataSource, companyId: string): Promise<boolean> {
  const rows: unknown[] = await db.query('SELECT 1 FROM sapi_clients WHERE company_id = $1 LIMIT 1', [companyId]);
  return rows.length > 0;
}

/**
 * A page of the company's inbox in one status, oldest first: the documents received after
 * `after` (a position, the keyset; null from the start), at most `limit`, and whether more follow.
 */
export async function listInbox(db: DataSource, companyId: string, status: InboxStatus, after: string | null, limit: number): Promise<{ items: InboxItem[]; more: boolean }> {
  const rows: Row<InboxItem>[] = await db.query(
    `SELECT ${ITEM} FROM sapi_inbox_documents
     WHERE company_id = $1 AND status = $2 AND ($3::text IS NULL OR position > $3::text COLLATE "C")
     ORDER BY position COLLATE "C" LIMIT $4`,
    [companyId, status, after, limit + 1],
  );
  return { items: rows.slice(0, limit).map(item), more: rows.length > limit };
}

/** One of the company's inbound documents with its payload, or null (another company's too). */
export async function getInboxDocument(db: DataSource, companyId: string, documentId: string): Promise<InboxDocument | null> {
  const rows: Row<InboxDocument>[] = await db.query(
    `SELECT ${ITEM}, sender_document_id, invoice_id, peppol_message_id, payload, acknowledged_at FROM sapi_inbox_documents WHERE document_id = $1 AND company_id = $2`,
    [documentId, companyId],
  );
  const row = rows[0];
  if (!row) return null;
  return { ...row, ...item(row), acknowledged_at: row.acknowledged_at ? iso(row.acknowledged_at) : null };
}
