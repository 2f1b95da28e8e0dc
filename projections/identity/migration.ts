import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1764000000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE oauth_clients (
      client_id varchar(64) PRIMARY KEY, organisation_id uuid NOT NULL, name varchar(255) NOT NULL, scopes text[] NOT NULL,
      secret_hash char(64) NOT NULL, is_active boolean NOT NULL, created_at timestamptz NOT NULL, revoked_at timestamptz)`);
    await q.query('CREATE INDEX oauth_clients_org ON oauth_clients (organisation_id)');
    await q.query(`CREATE TABLE security_events (
      id uuid PRIMARY KEY, organisation_id uuid, type varchar(40) NOT NULL, email varchar(320), user_id uuid,
      ip varchar(64), detail varchar(40), at timestamptz NOT NULL)`);
    await q.query('CREATE INDEX security_events_org_at ON security_events (organisation_id, at DESC)');
    await q.query(`CREATE TABLE refresh_families (
      family_id varchar(128) PRIMARY KEY, user_id uuid NOT NULL, organisation_id uuid NOT NULL, is_active boolean NOT NULL,
      started_at timestamptz NOT NULL, expires_at timestamptz NOT NULL)`);
    await q.query('CREATE INDEX refresh_families_user ON refresh_families (user_id) WHERE is_active');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE refresh_families, security_events, oauth_clients');
  }
}
