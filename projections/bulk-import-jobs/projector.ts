import type { EntityManager } from 'typeorm';
import { BULK_IMPORT_LIMITS } from '../../commands/bulk-import/limits.ts';
import type { BulkImportCompleted, BulkImportCreatedInvoice, BulkImportFailed, BulkImportProgressed, BulkImportRequested, BulkImportRowError } from '../../events/bulk-import.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { BulkImportJobInvoices1766700000000 } from './invoices-migration.ts';
import { BulkImportJobs1764600000000 } from './migration.ts';
import { BULK_IMPORT_JOBS } from './queries.ts';

// adds a chunk's errors, keeping the first ones up to the cap and counting all
const ADD_ERRORS = `errors = CASE WHEN jsonb_array_length(errors) >= ${BULK_IMPORT_LIMITS.maxErrorsShown} THEN errors
    ELSE (SELECT coalesce(jsonb_agg(e ORDER BY n), '[]'::jsonb) FROM jsonb_array_elements(errors || $2::jsonb) WITH ORDINALITY AS t(e, n)
          WHERE n <= ${BULK_IMPORT_LIMITS.maxErrorsShown}) END,
  errors_total = errors_total + jsonb_array_length($2::jsonb)`;

const json = (errors: BulkImportRowError[]) => JSON.stringify(errors);

/** A chunk's created invoices in one statement; a replayed event adds nothing twice. */
async function addInvoices(tx: EntityManager, jobId: string, invoices: BulkImportCreatedInvoice[]): Promise<void> {
  await tx.query(
    `INSERT INTO bulk_import_job_invoices (job_id, invoice_id, invoice_ref, invoice_number, first_row, rows)
     SELECT $1, (i->>'invoice_id')::uuid, i->>'invoice_ref', i->>'invoice_number', (i->'rows'->>0)::integer, i->'rows'
     FROM jsonb_array_elements($2::jsonb) AS t(i)
     ON CONFLICT (job_id, invoice_id) DO NOTHING`,
    [jobId, JSON.stringify(invoices)],
  );
}

/**
 * Bulk-import jobs for the status route: one row per job, moved by the worker's progress and its
 * end. A job's file (BulkImportFileStored) is not read here.
 */
export const bulkImportJobs = defineProjector<BulkImportRequested | BulkImportProgressed | BulkImportCompleted | BulkImportFailed>({
  name: BULK_IMPORT_JOBS,
  handles: ['BulkImportRequested', 'BulkImportProgressed', 'BulkImportCompleted', 'BulkImportFailed'],
  tables: ['bulk_import_jobs', 'bulk_import_job_invoices'],
  migrations: [BulkImportJobs1764600000000, BulkImportJobInvoices1766700000000],

  async apply(events, tx) {
    for (const event of events) {
      switch (event.type) {
        case 'BulkImportRequested': {
          const d = event.data;
          await tx.query(
            `INSERT INTO bulk_import_jobs (id, organisation_id, company_id, status, file_name, size_bytes, requested_by, requested_at)
             VALUES ($1, $2, $3, 'processing', $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
            [d.job_id, d.organisation_id, d.company_id, d.file_name, d.size_bytes, d.requested_by.id, d.requested_at],
          );
          break;
        }
        case 'BulkImportProgressed': {
          const d = event.data;
          await tx.query(`UPDATE bulk_import_jobs SET rows_processed = $3, created = $4, ${ADD_ERRORS} WHERE id = $1`, [d.job_id, json(d.errors), d.rows_processed, d.created]);
          // older events name only the ids (invoice_ids): their invoices are not listed
          if (d.invoices && d.invoices.length > 0) await addInvoices(tx, d.job_id, d.invoices);
          break;
        }
        case 'BulkImportCompleted': {
          const d = event.data;
          await tx.query(
            `UPDATE bulk_import_jobs SET status = 'completed', total_rows = $2, rows_processed = $3, created = $4, finished_at = $5 WHERE id = $1`,
            [d.job_id, d.total_rows, d.rows_processed, d.created, d.completed_at],
          );
          break;
        }
        case 'BulkImportFailed': {
          const d = event.data;
          await tx.query(`UPDATE bulk_import_jobs SET status = 'failed', total_rows = $3, finished_at = $4, ${ADD_ERRORS} WHERE id = $1`, [d.job_id, json(d.errors), d.total_rows, d.failed_at]);
          break;
        }
      }
    }
  },
});
