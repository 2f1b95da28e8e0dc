import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each API key was last used. Not a projection of events (a use is not a business fact and
 * must not cost an append per request): the service writes it in batches, and a rebuild of the
 * api-keys read model leaves it alone.
 */
export class ApiKeyUsage1764000000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE credential_last_used (
      credential_id varchar(64) PRIMARY KEY, last_used_at timestamptz NOT NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE credential_last_used');
  }
}
