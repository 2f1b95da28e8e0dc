import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Tenancy1763800000500 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE organisations (
      id uuid PRIMARY KEY, name varchar(255) NOT NULL, plan varchar(50) NOT NULL, created_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE workspaces (
      id uuid PRIMARY KEY, organisation_id uuid NOT NULL, name varchar(255) NOT NULL, created_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE users (
      id uuid PRIMARY KEY, organisation_id uuid NOT NULL, email varchar(255) NOT NULL, name varchar(255) NOT NULL,
      role varchar(20) NOT NULL, password_hash text NOT NULL, created_at timestamptz NOT NULL,
      UNIQUE (organisation_id, email))`);
    await q.query(`CREATE TABLE companies (
      id uuid PRIMARY KEY, organisation_id uuid NOT NULL, workspace_id uuid NOT NULL, name varchar(255) NOT NULL,
      vat_id varchar(20) NOT NULL, ico varchar(10) NOT NULL, dic varchar(20) NOT NULL, peppol_id varchar(100) NOT NULL,
      iban varchar(34) NOT NULL, created_at timestamptz NOT NULL)`);
    await q.query('CREATE INDEX companies_org ON companies (organisation_id)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE companies, users, workspaces, organisations');
  }
}
