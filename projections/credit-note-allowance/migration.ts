import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreditNoteAllowances1764200000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // state: the invoice folded as its stream stands (what the allowance is computed from); allowance: the answer, ready to send
    await q.query(`CREATE TABLE credit_note_allowances (
      invoice_id uuid PRIMARY KEY,
      organisation_id uuid NOT NULL,
      company_id uuid NOT NULL,
      version integer NOT NULL,
      state jsonb NOT NULL,
      allowance jsonb NOT NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE credit_note_allowances');
  }
}
