import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Work due at a time (scheduled-work.ts): one row per (kind, key), what it is about named by the
 * key, what caused it (`ref`: an event id), when it is due, its lane (what it must not hold up others behind: a receiver) and a lease
 * while an instance runs it. Operational state like a reactor's checkpoint, not a read model: the
 * events say what is to be done, these rows say when to look.
 */
export class ScheduledWork1766300000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE scheduled_work (
      kind varchar(40) NOT NULL,
      key text NOT NULL,
      lane text NOT NULL,
      ref text NOT NULL DEFAULT '',
      due_at timestamptz NOT NULL,
      runs integer NOT NULL DEFAULT 0,
      revision integer NOT NULL DEFAULT 0,
      lease_until timestamptz,
      lease_owner text,
      scheduled_at timestamptz NOT NULL,
      PRIMARY KEY (kind, key))`);
    await q.query('CREATE INDEX scheduled_work_due ON scheduled_work (due_at)');
    await q.query('ALTER TABLE scheduled_work SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE scheduled_work');
  }
}
