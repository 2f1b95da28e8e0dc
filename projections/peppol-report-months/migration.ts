import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PeppolReportMonths1766500000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // One row per reported month and report (EUSR, TSR): its status, its message and OpenPeppol's MLS
    await q.query(`CREATE TABLE peppol_report_months (
      month varchar(7) NOT NULL,
      kind varchar(4) NOT NULL,
      status varchar(8) NOT NULL,
      valid boolean,
      errors jsonb NOT NULL,
      built_at timestamptz NOT NULL,
      message_id text,
      attempts integer NOT NULL,
      retry_at timestamptz,
      last_error text,
      sent_at timestamptz,
      mls_response_code varchar(2),
      mls_reasons jsonb,
      mls_received_at timestamptz,
      PRIMARY KEY (month, kind))`);
    await q.query('CREATE UNIQUE INDEX peppol_report_months_message ON peppol_report_months (message_id) WHERE message_id IS NOT NULL');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE peppol_report_months');
  }
}
