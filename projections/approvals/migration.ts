import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InvoiceApprovals1764300000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // the latest approval request of an invoice and its review; the invoice itself is the register's row
    await q.query(`CREATE TABLE invoice_approvals (
      invoice_id uuid PRIMARY KEY,
      version integer NOT NULL,
      approval jsonb NOT NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE invoice_approvals');
  }
}
