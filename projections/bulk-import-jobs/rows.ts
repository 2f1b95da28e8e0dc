import type { BulkImportCreatedInvoice, BulkImportRowError } from '../../events/bulk-import.ts';

/** A job as the status route shows it. */
export interface BulkImportJobRow {
  id: string;
  organisation_id: string;
  company_id: string;
  status: 'processing' | 'completed' | 'failed';
  file_name: string | null;
  size_bytes: number;
  requested_at: Date;
  total_rows: number | null;
  rows_processed: number;
  created: number;
  errors: BulkImportRowError[];
  errors_total: number;
  finished_at: Date | null;
}

/** An invoice the job created, as the status lists it. */
export type BulkImportJobInvoiceRow = BulkImportCreatedInvoice;
