import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The register's documents (and delivery) compressed with lz4 instead of pglz where the server
 * has it: a rebuild writes every document again, and pglz compression took about a tenth of the
 * database's time for it (perf on the rebuild bench); lz4 compresses several times faster and
 * reads back faster. Only values written from now on use it; stored ones stay readable as they
 * are. PGlite is built without lz4 and keeps pglz.
 */
export class InvoicesLz4Compression1765000000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`DO $$ BEGIN
      ALTER TABLE invoices ALTER COLUMN document SET COMPRESSION lz4, ALTER COLUMN delivery SET COMPRESSION lz4;
    EXCEPTION WHEN feature_not_supported THEN NULL;
    END $$`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DO $$ BEGIN
      ALTER TABLE invoices ALTER COLUMN document SET COMPRESSION default, ALTER COLUMN delivery SET COMPRESSION default;
    EXCEPTION WHEN feature_not_supported THEN NULL;
    END $$`);
  }
}
