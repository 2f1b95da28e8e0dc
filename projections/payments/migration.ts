import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Payments1764200000500 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // one row per payment or refund; `revision` is its PaymentRecorded's place in the document's payments stream (the list's order)
    await q.query(`CREATE TABLE payments (
      id uuid PRIMARY KEY,
      document_id uuid NOT NULL,
      organisation_id uuid NOT NULL,
      company_id uuid NOT NULL,
      kind varchar(10) NOT NULL,
      amount numeric(14, 2) NOT NULL,
      currency_code varchar(3) NOT NULL,
      paid_on date NOT NULL,
      method varchar(20) NOT NULL,
      reference varchar(140),
      recorded_by text NOT NULL,
      recorded_at timestamptz NOT NULL,
      revision integer NOT NULL,
      status varchar(10) NOT NULL,
      reversed_by text,
      reversed_at timestamptz,
      reversal_reason text)`);
    await q.query('CREATE INDEX payments_document ON payments (document_id, revision)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE payments');
  }
}
