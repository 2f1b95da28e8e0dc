import type { DataSource } from 'typeorm';
import type { BulkImportJobRow } from './rows.ts';

/** The projector's name: what read-your-writes waits for. */
export const BULK_IMPORT_JOBS = 'bulk-import-jobs';

/** A job of the organisation's company, or null (another organisation's or company's job is not found). */
export async function getBulkImportJob(db: DataSource, scope: { organisationId: string; companyId: string }, jobId: string): Promise<BulkImportJobRow | null> {
  const rows: BulkImportJobRow[] = await db.query(
    `SELECT id, organisation_id, company_id, status, file_name, size_bytes, requested_at, total_rows, rows_processed, created, errors, errors_total, finished_at
     FROM bulk_import_jobs WHERE id = $1 AND organisation_id = $2 AND company_id = $3`,
    [jobId, scope.organisationId, scope.companyId],
  );
  return rows[0] ?? null;
}
