import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a session ended, so an instance that starts (or reconnects) can refuse the access tokens of
 * sessions ended in the last minutes. Sessions ended before this migration have none: their
 * tokens are refused only by the instances that heard the revocation.
 */
export class IdentityRevokedAt1764000000300 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE refresh_families ADD COLUMN revoked_at timestamptz');
    await q.query('CREATE INDEX refresh_families_revoked_at ON refresh_families (revoked_at) WHERE revoked_at IS NOT NULL');
    await q.query('CREATE INDEX oauth_clients_revoked_at ON oauth_clients (revoked_at) WHERE revoked_at IS NOT NULL');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX oauth_clients_revoked_at');
    await q.query('DROP INDEX refresh_families_revoked_at');
    await q.query('ALTER TABLE refresh_families DROP COLUMN revoked_at');
  }
}
