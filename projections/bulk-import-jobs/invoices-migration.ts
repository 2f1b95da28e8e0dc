import type { MigrationInterface, QueryRunner } from 'typeorm';

export class BulkImportJobInvoices1766700000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // the invoices a job created, one row each: its rows of the file, ref and number (the job's status lists them by first row)
    await q.query(`CREATE TABLE bulk_import_job_invoices (
      job_id uuid NOT NULL,
      invoice_id uuid NOT NULL,
      invoice_ref text NOT NULL,
      invoice_number text NOT NULL,
      first_row integer NOT NULL,
      rows jsonb NOT NULL,
      PRIMARY KEY (job_id, invoice_id))`);
    await q.query('CREATE INDEX bulk_import_job_invoices_by_row ON bulk_import_job_invoices (job_id, first_row)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE bulk_import_job_invoices');
  }
}
