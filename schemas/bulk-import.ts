import { Type, type Static } from '@sinclair/typebox';
import { BULK_IMPORT_LIMITS } from '../commands/bulk-import/limits.ts';
import { Uuid } from './common/index.ts';

export const BulkImportAccepted = Type.Object(
  {
    job_id: Uuid,
    status: Type.Literal('processing'),
  },
  { $id: 'BulkImportAccepted', description: 'the job is queued; poll the URL in Location (GET /companies/{company_id}/bulk-imports/{job_id})' },
);

export const BulkImportRowError = Type.Object({
  row: Type.Integer({ minimum: 1, description: '1-based CSV record: row 1 is the header, the first data row is 2 (a quoted cell\'s line breaks stay in its row, as in a spreadsheet)' }),
  column: Type.Union([Type.String(), Type.Null()], { description: 'the header name, or null when the problem is the row or the file' }),
  message: Type.String(),
});

export const BulkImportCreatedInvoice = Type.Object(
  {
    rows: Type.Array(Type.Integer({ minimum: 2 }), { minItems: 1, description: 'the data rows the invoice was made from (its invoice_ref\'s rows, in file order: the first is the invoice\'s, each a line), numbered as in errors' }),
    invoice_ref: Type.String({ description: 'the file\'s invoice_ref of these rows' }),
    invoice_id: Uuid,
    invoice_number: Type.String({ description: 'the number it was given (the file\'s invoice_number, or the next of the series)' }),
  },
  { $id: 'BulkImportCreatedInvoice', description: 'an invoice the job created (a draft)' },
);

export const BulkImportJob = Type.Object(
  {
    job_id: Uuid,
    status: Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')], {
      description: '`completed`: every invoice was decided, created as a draft or refused with row errors (an invoice with any error is not created at all). `failed`: the file is unusable as a whole (not UTF-8, no header, an unknown or missing required column, malformed CSV, more rows than allowed): nothing was created',
    }),
    total_rows: Type.Union([Type.Integer(), Type.Null()], { description: 'data rows of the file (blank rows not counted); null while processing' }),
    rows_processed: Type.Integer({ description: 'progress: data rows whose invoice has been decided so far; equals total_rows once completed' }),
    created: Type.Integer({ description: 'invoices created (drafts)' }),
    errors: Type.Array(BulkImportRowError, { description: `filled only once the job is completed or failed (empty while processing), ordered by row; the first ${BULK_IMPORT_LIMITS.maxErrorsShown}` }),
    errors_total: Type.Integer({ description: 'all errors found, also those beyond the ones listed' }),
    invoices: Type.Array(BulkImportCreatedInvoice, {
      description: 'the invoices created so far (growing while processing), ordered by their first row: each with its rows, invoice_ref, id and number. A refused invoice is not here; its rows are in errors',
    }),
    file_name: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'BulkImportJob' },
);
export type BulkImportJob = Static<typeof BulkImportJob>;
