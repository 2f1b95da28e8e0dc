import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomerDirectory1763800001000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE customers (
      id uuid PRIMARY KEY,
      organisation_id uuid NOT NULL,
      company_id uuid,
      name varchar(255) NOT NULL,
      name_folded text NOT NULL,
      vat_id varchar(20) NOT NULL,
      ico varchar(10),
      dic varchar(20),
      email varchar(255),
      phone varchar(50),
      street varchar(255) NOT NULL,
      city varchar(100) NOT NULL,
      postal_code varchar(10) NOT NULL,
      country_code varchar(2) NOT NULL,
      peppol_id varchar(100),
      note text,
      is_active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      version integer NOT NULL)`);
    await q.query('CREATE INDEX customers_org_name ON customers (organisation_id, name_folded, id)');
    await q.query('CREATE INDEX customers_org_vat ON customers (organisation_id, vat_id)');
    await q.query('CREATE INDEX customers_org_ico ON customers (organisation_id, ico)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE customers');
  }
}
