import type { DataSource } from 'typeorm';
import type { BulkImportJobInvoiceRow, BulkImportJobRow } from './rows.ts';

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

/** The invoices a job created so far, by the first row of each (the job's scope was checked by getBulkImportJob). */
export async function listBulkImportJobInvoices(db: DataSource, jobId: string): Promise<BulkImportJobInvoiceRow[]> {
  return db.query(
    `SELECT rows, invoice_ref, invoice_id, invoice_number FROM bulk_import_job_invoices WHERE job_id = $1 ORDER BY first_row`,
    [jobId],
  );
}
