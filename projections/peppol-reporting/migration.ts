import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PeppolReporting1766400000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // What a send needs but its Sent event does not carry, read from the stream's earlier events:
    // the process id and COUNTRY_C1 the SBDH was written with (keyed by the invoice, credit note
    // or SAPI document id, which the Sent event names)
    await q.query(`CREATE TABLE peppol_reporting_sources (
      source_id text PRIMARY KEY,
      process_id text,
      country_c1 varchar(2))`);
    // One row per business document our Access Point sent or received (Peppol Reporting, EUSR and TSR)
    await q.query(`CREATE TABLE peppol_reporting_items (
      direction varchar(8) NOT NULL,
      peppol_message_id text NOT NULL,
      end_user_id text NOT NULL,
      end_user_country varchar(2) NOT NULL,
      document_type_id text NOT NULL,
      process_id text NOT NULL,
      c1_country varchar(2) NOT NULL,
      c4_country varchar(2),
      peer_ap text,
      transport_profile text NOT NULL,
      exchanged_at timestamptz NOT NULL,
      PRIMARY KEY (direction, peppol_message_id, end_user_id))`);
    await q.query('CREATE INDEX peppol_reporting_items_time ON peppol_reporting_items (exchanged_at)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE peppol_reporting_items');
    await q.query('DROP TABLE peppol_reporting_sources');
  }
}
