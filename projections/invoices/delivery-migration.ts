import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Delivery state beside each invoice: where it came from, the two legs, and the ids callbacks look it up by. */
export class InvoiceDelivery1763900000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoices
      ADD COLUMN source varchar(10) NOT NULL DEFAULT 'api',
      ADD COLUMN peppol_message_id varchar(100),
      ADD COLUMN fs_submission_id varchar(100),
      ADD COLUMN delivery jsonb`);
    // delivery-status callbacks find the sender's copy by the Peppol message id
    await q.query(`CREATE INDEX invoices_peppol_message ON invoices (peppol_message_id) WHERE peppol_message_id IS NOT NULL`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX invoices_peppol_message');
    await q.query('ALTER TABLE invoices DROP COLUMN source, DROP COLUMN peppol_message_id, DROP COLUMN fs_submission_id, DROP COLUMN delivery');
  }
}
