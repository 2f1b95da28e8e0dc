import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The register holds whatever an event carries: amounts as unconstrained numeric (an invoice
 * accepted before the write-side bounds, or a received one, may exceed numeric(18,2)), and the
 * texts taken from a document as text (a received UBL bounds none of them). Neither change
 * rewrites the table or its indexes: both are binary-compatible widenings in Postgres.
 */
export class InvoicesUnboundedColumns1764100000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoices
      ALTER COLUMN total_net TYPE numeric, ALTER COLUMN total_vat TYPE numeric, ALTER COLUMN total_gross TYPE numeric,
      ALTER COLUMN invoice_number TYPE text, ALTER COLUMN currency_code TYPE text, ALTER COLUMN supplier_name TYPE text,
      ALTER COLUMN buyer_name TYPE text, ALTER COLUMN buyer_vat_id TYPE text, ALTER COLUMN created_by TYPE text,
      ALTER COLUMN peppol_message_id TYPE text, ALTER COLUMN fs_submission_id TYPE text`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoices
      ALTER COLUMN total_net TYPE numeric(18, 2), ALTER COLUMN total_vat TYPE numeric(18, 2), ALTER COLUMN total_gross TYPE numeric(18, 2),
      ALTER COLUMN invoice_number TYPE varchar(50), ALTER COLUMN currency_code TYPE varchar(3), ALTER COLUMN supplier_name TYPE varchar(255),
      ALTER COLUMN buyer_name TYPE varchar(255), ALTER COLUMN buyer_vat_id TYPE varchar(20), ALTER COLUMN created_by TYPE varchar(64),
      ALTER COLUMN peppol_message_id TYPE varchar(100), ALTER COLUMN fs_submission_id TYPE varchar(100)`);
  }
}
