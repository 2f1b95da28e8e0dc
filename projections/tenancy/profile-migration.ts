import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rest of a company's profile (issue 40): the address's second line and country, the register
 * entry, a contact and the BIC. Companies registered before had none, so '' (SK) is what a rebuild
 * would write too.
 */
export class CompanyProfile1767040000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE companies
      ADD COLUMN additional_street varchar(255) NOT NULL DEFAULT '', ADD COLUMN country_code varchar(2) NOT NULL DEFAULT 'SK',
      ADD COLUMN register_entry varchar(255) NOT NULL DEFAULT '', ADD COLUMN contact_name varchar(255) NOT NULL DEFAULT '',
      ADD COLUMN contact_email varchar(255) NOT NULL DEFAULT '', ADD COLUMN contact_phone varchar(50) NOT NULL DEFAULT '',
      ADD COLUMN bic varchar(11) NOT NULL DEFAULT ''`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE companies DROP COLUMN additional_street, DROP COLUMN country_code, DROP COLUMN register_entry,
      DROP COLUMN contact_name, DROP COLUMN contact_email, DROP COLUMN contact_phone, DROP COLUMN bic`);
  }
}
