import type { MigrationInterface, QueryRunner } from 'typeorm';

export class BulkImportJobs1764600000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // one row per job; errors keeps the first ones found (see BULK_IMPORT_LIMITS.maxErrorsShown), errors_total counts them all
    await q.query(`CREATE TABLE bulk_import_jobs (
      id uuid PRIMARY KEY,
      organisation_id uuid NOT NULL,
      company_id uuid NOT NULL,
      status varchar(12) NOT NULL,
      file_name text,
      size_bytes integer NOT NULL,
      requested_by text NOT NULL,
      requested_at timestamptz NOT NULL,
      total_rows integer,
      rows_processed integer NOT NULL DEFAULT 0,
      created integer NOT NULL DEFAULT 0,
      errors jsonb NOT NULL DEFAULT '[]',
      errors_total integer NOT NULL DEFAULT 0,
      finished_at timestamptz)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE bulk_import_jobs');
  }
}
