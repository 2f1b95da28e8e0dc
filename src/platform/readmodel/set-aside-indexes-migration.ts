import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The secondary indexes a rebuild has dropped and not yet built again (set-aside-indexes.ts). */
export class SetAsideIndexes1764900000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE projection_set_aside_indexes (
      projector text NOT NULL,
      index_name text NOT NULL,
      definition text NOT NULL,
      PRIMARY KEY (projector, index_name))`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE projection_set_aside_indexes');
  }
}
