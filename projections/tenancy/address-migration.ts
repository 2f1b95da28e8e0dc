import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A company's address (CompanyRegistered's optional street, city, postal_code), which invoices take
 * as the seller's. Companies registered before had none, so '' is what a rebuild would write too.
 */
export class CompanyAddress1766400000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE companies
      ADD COLUMN street varchar(255) NOT NULL DEFAULT '', ADD COLUMN city varchar(100) NOT NULL DEFAULT '', ADD COLUMN postal_code varchar(10) NOT NULL DEFAULT ''`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE companies DROP COLUMN street, DROP COLUMN city, DROP COLUMN postal_code');
  }
}
