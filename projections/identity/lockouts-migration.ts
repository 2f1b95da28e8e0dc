import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lock-outs in the security log (issue 37): the addresses whose failures caused one, until when it
 * holds, and for a SAPI-SK client's lock-out the client and its company. Rows from before have none.
 */
export class IdentitySecurityLockouts1764000000400 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE security_events ADD COLUMN ips text[], ADD COLUMN locked_until timestamptz,
      ADD COLUMN sapi_client_id varchar(64), ADD COLUMN company_id uuid`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE security_events DROP COLUMN company_id, DROP COLUMN sapi_client_id, DROP COLUMN locked_until, DROP COLUMN ips');
  }
}
