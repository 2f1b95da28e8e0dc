import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ApiKeys1763800000600 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE api_keys (
      id uuid PRIMARY KEY, organisation_id uuid NOT NULL, name varchar(100) NOT NULL, key_prefix varchar(20) NOT NULL,
      key_hash char(64) NOT NULL UNIQUE, scopes text[] NOT NULL, is_active boolean NOT NULL,
      created_at timestamptz NOT NULL, expires_at timestamptz, revoked_at timestamptz)`);
    await q.query(`CREATE TABLE sapi_clients (
      client_id varchar(64) PRIMARY KEY, organisation_id uuid NOT NULL, company_id uuid NOT NULL,
      participant_id varchar(100) NOT NULL, secret_hash char(64) NOT NULL, created_at timestamptz NOT NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sapi_clients, api_keys');
  }
}
