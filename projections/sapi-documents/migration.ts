import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SapiDocuments1764500000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // outbound SAPI-SK documents as GET /sapi/document/status shows them; the payload stays in the stream
    await q.query(`CREATE TABLE sapi_documents (
      document_id uuid PRIMARY KEY,
      provider_document_id varchar(64) NOT NULL UNIQUE,
      client_id varchar(128) NOT NULL,
      organisation_id uuid NOT NULL,
      company_id uuid NOT NULL,
      peppol_message_id varchar(64) NOT NULL,
      version integer NOT NULL,
      view jsonb NOT NULL)`);
    await q.query('CREATE INDEX sapi_documents_message ON sapi_documents (peppol_message_id)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sapi_documents');
  }
}

/** Corner 5's MLS is matched by the filing's submission id (sapiDocumentIdByFsSubmission): by index, not a scan of every document. */
export class SapiDocumentsFsSubmission1767100000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query("CREATE INDEX sapi_documents_fs_submission ON sapi_documents ((view->'fs'->>'submission_id'))");
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX sapi_documents_fs_submission');
  }
}
