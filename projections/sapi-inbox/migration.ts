import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SapiInbox1764500000700 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // `position` is the Received event's place in the all-events order (opaque, ordered as plain
    // strings, hence COLLATE "C"): the list's order and its keyset, the same after a rebuild
    await q.query(`CREATE TABLE sapi_inbox_documents (
      document_id varchar(44) PRIMARY KEY,
      position text COLLATE "C" NOT NULL,
      organisation_id uuid NOT NULL,
      company_id uuid NOT NULL,
      invoice_id uuid NOT NULL,
      peppol_message_id text NOT NULL,
      document_type_id text NOT NULL,
      process_id text NOT NULL,
      sender_participant_id text NOT NULL,
      receiver_participant_id text NOT NULL,
      creation_date_time timestamptz NOT NULL,
      sender_document_id text NOT NULL,
      payload text NOT NULL,
      status varchar(12) NOT NULL,
      received_at timestamptz NOT NULL,
      acknowledged_at timestamptz,
      acknowledged_by text)`);
    await q.query('CREATE INDEX sapi_inbox_documents_list ON sapi_inbox_documents (company_id, status, position)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sapi_inbox_documents');
  }
}
