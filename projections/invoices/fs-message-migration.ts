import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The corner-5 MLS that answers a tax data document finds its invoice by the TDD's Peppol message id. */
export class InvoicesFsMessage1766500000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX IF NOT EXISTS invoices_fs_message ON invoices (fs_submission_id) WHERE fs_submission_id IS NOT NULL');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS invoices_fs_message');
  }
}
