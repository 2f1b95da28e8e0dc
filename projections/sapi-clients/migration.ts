import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SapiClients1764500000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sapi_credentials (
      client_id varchar(64) PRIMARY KEY, organisation_id uuid NOT NULL, company_id uuid NOT NULL,
      participant_id varchar(100) NOT NULL, enabled boolean NOT NULL, allowlist text[] NOT NULL,
      secret_rotated_at timestamptz, locked_until timestamptz, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
    await q.query('CREATE INDEX sapi_credentials_company ON sapi_credentials (organisation_id, company_id)');
    await q.query(`CREATE TABLE sapi_token_families (
      family_id varchar(100) PRIMARY KEY, client_id varchar(64) NOT NULL, started_at timestamptz,
      renewed_at timestamptz, revoked_at timestamptz, revoke_reason varchar(40))`);
    await q.query('CREATE INDEX sapi_token_families_client ON sapi_token_families (client_id) WHERE revoked_at IS NULL');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sapi_token_families, sapi_credentials');
  }
}
