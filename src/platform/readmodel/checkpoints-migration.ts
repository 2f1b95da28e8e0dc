import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Where each projector and reactor has got to in the all-events order (an opaque, sortable position). */
export class Checkpoints1763800000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE projection_checkpoints (
      name text PRIMARY KEY,
      position text NOT NULL DEFAULT '',
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE reactor_checkpoints (
      name text PRIMARY KEY,
      position text NOT NULL DEFAULT '',
      updated_at timestamptz NOT NULL DEFAULT now())`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE reactor_checkpoints');
    await q.query('DROP TABLE projection_checkpoints');
  }
}
