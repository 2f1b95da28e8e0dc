import type { DomainEvent } from './event.ts';

/**
 * A bulk CSV import job, one stream per job (`bulk_import-{job_id}`). The file travels in its own
 * event beside the request, so followers of the request (the jobs read model) never read the
 * file's text; only the worker, which reads the job's stream, does.
 */

/** One problem the job found: `row` is the 1-based CSV record (row 1 is the header), `column` a header name or null. */
export interface BulkImportRowError {
  row: number;
  column: string | null;
  message: string;
}

/** An invoice a job created: the data rows it was made from (its group, in file order), its ref, id and number. */
export interface BulkImportCreatedInvoice {
  rows: number[];
  invoice_ref: string;
  invoice_id: string;
  invoice_number: string;
}

/** Who may enqueue: an API key, a signed-in user or an OAuth client (the service itself in tests). */
export type RequesterType = 'api_key' | 'user' | 'oauth_client' | 'system';

export type BulkImportRequested = DomainEvent<
  'BulkImportRequested',
  {
    job_id: string;
    organisation_id: string;
    company_id: string;
    /** the API key, user or OAuth client that enqueued it; the invoices are created by it */
    requested_by: { type: RequesterType; id: string; role: 'admin' | 'approver' | 'accountant' };
    /** the uploaded file's name (multipart), or null for a text/csv body */
    file_name: string | null;
    size_bytes: number;
    /** hex SHA-256 of the bytes received */
    sha256: string;
    requested_at: string;
  }
>;

/** The file as text (decoded from UTF-8, a BOM removed); written with BulkImportRequested. */
export type BulkImportFileStored = DomainEvent<'BulkImportFileStored', { job_id: string; text: string }>;

/**
 * The invoices of one chunk of the file are decided (created or refused): `next_group` is the
 * index of the first invoice group not yet decided, so a resumed job starts there.
 */
export type BulkImportProgressed = DomainEvent<
  'BulkImportProgressed',
  {
    job_id: string;
    next_group: number;
    /** data rows of the groups decided so far, in all */
    rows_processed: number;
    /** invoices created so far, in all */
    created: number;
    /** this chunk's problems */
    errors: BulkImportRowError[];
    /** this chunk's created invoices */
    invoice_ids: string[];
    /**
     * Added later (optional: older events lack it): the same created invoices with their rows,
     * ref and number, for the job's status. Absent, the status lists none of that chunk's.
     */
    invoices?: BulkImportCreatedInvoice[];
    at: string;
  }
>;

export type BulkImportCompleted = DomainEvent<
  'BulkImportCompleted',
  { job_id: string; total_rows: number; created: number; rows_processed: number; completed_at: string }
>;

/** The file was unusable as a whole (not UTF-8, no header, an unknown column, malformed CSV, too many rows): nothing was created. */
export type BulkImportFailed = DomainEvent<
  'BulkImportFailed',
  { job_id: string; total_rows: number; errors: BulkImportRowError[]; failed_at: string }
>;

export type BulkImportEvent = BulkImportRequested | BulkImportFileStored | BulkImportProgressed | BulkImportCompleted | BulkImportFailed;

export const bulkImportStream = (jobId: string) => `bulk_import-${jobId}`;
