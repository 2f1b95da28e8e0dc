import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Invoices1763800002000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // trigram index: q is a substring search over number and party names that must stay fast at a million rows
    await q.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await q.query(`CREATE TABLE invoices (
      id uuid PRIMARY KEY,
      organisation_id uuid NOT NULL,
      company_id uuid NOT NULL,
      workspace_id uuid NOT NULL,
      invoice_number varchar(50) NOT NULL,
      invoice_type varchar(3) NOT NULL,
      status varchar(20) NOT NULL,
      issue_date date NOT NULL,
      due_date date,
      currency_code varchar(3) NOT NULL,
      supplier_name varchar(255) NOT NULL,
      buyer_name varchar(255) NOT NULL,
      buyer_vat_id varchar(20) NOT NULL,
      customer_id uuid,
      total_net numeric(18, 2) NOT NULL,
      total_vat numeric(18, 2) NOT NULL,
      total_gross numeric(18, 2) NOT NULL,
      created_by varchar(64) NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      version integer NOT NULL,
      search text NOT NULL,
      document jsonb NOT NULL)`);
    await q.query('CREATE INDEX invoices_company_issue ON invoices (organisation_id, company_id, issue_date DESC, id)');
    await q.query('CREATE INDEX invoices_org_status ON invoices (organisation_id, status)');
    await q.query('CREATE INDEX invoices_search ON invoices USING gin (search gin_trgm_ops)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE invoices');
  }
}
