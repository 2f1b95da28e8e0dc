import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events a projector could not apply, and reactions that kept failing: parked, so the projector or
 * reactor goes on past them, and shown to the operator (`projections status`, the error log).
 * Texts, not uuids: a parked event is one whose data cannot be trusted.
 */
export class ParkedEvents1764100000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    for (const table of ['projection_failures', 'reactor_failures']) {
      await q.query(`CREATE TABLE ${table} (
        name text NOT NULL,
        event_id text NOT NULL,
        position text NOT NULL,
        stream_id text NOT NULL,
        event_type text NOT NULL,
        organisation_id text,
        error text NOT NULL,
        attempts integer NOT NULL DEFAULT 1,
        failed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (name, event_id))`);
      // a read of one resource asks whether its stream has a parked event
      await q.query(`CREATE INDEX ${table}_stream ON ${table} (stream_id, name)`);
    }
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE reactor_failures');
    await q.query('DROP TABLE projection_failures');
  }
}
