import { Type } from '@sinclair/typebox';
import { stringify } from 'csv-stringify/sync';
import { COLUMNS } from '../../../commands/bulk-import/columns.ts';
import { BULK_IMPORT_LIMITS } from '../../../commands/bulk-import/limits.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { BULK_IMPORT_JOBS, getBulkImportJob, listBulkImportJobInvoices } from '../../../projections/bulk-import-jobs/queries.ts';
import type { BulkImportJobInvoiceRow, BulkImportJobRow } from '../../../projections/bulk-import-jobs/rows.ts';
import { BulkImportAccepted, BulkImportJob } from '../../../schemas/bulk-import.ts';
import { ErrorBody, Uuid } from '../../../schemas/common/index.ts';
import { companyOf } from '../invoices/index.ts';
import { enqueueImport, requireBulkImport, type EnqueueDeps } from './enqueue.ts';
import { FILE_FIELD, readUpload } from './upload.ts';
import type { Core } from '../../platform/core.ts';
import { API_PREFIX } from '../../doors/native/prefix.ts';
import { idempotent, type Recover } from '../idempotency/index.ts';
import { bulkImportStream, type BulkImportRequested } from '../../../events/bulk-import.ts';
import { eventData } from '../../platform/readmodel/projector.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { LOCATION_HEADER } from '../../platform/http/index.ts';

export type BulkImportRouteDeps = EnqueueDeps & Pick<Core, 'projections' | 'config'>;

const { maxFileBytes, maxDataRows, maxLinesPerInvoice } = BULK_IMPORT_LIMITS;

/** One property per column, for the OpenAPI document: what each column holds. */
const CsvRow = Type.Object(
  Object.fromEntries(COLUMNS.map((c) => [c.name, Type.String({ description: `${c.level === 'line' ? 'line' : 'invoice'} level${c.required ? ', required' : ''}. ${c.description}` })])),
  { $id: 'BulkImportCsvRow', description: 'The columns of a bulk-import CSV (the header row names them); every cell is text' },
);

const COLUMN_TABLE = [
  '| column | level | required | holds |', '|---|---|---|---|',
  ...COLUMNS.map((c) => `| ${c.name} | ${c.level === 'line' ? 'line' : 'invoice'} | ${c.required ? 'yes' : ''} | ${c.description} |`),
].join('\n');

const RULES = `Row 1 is the header; every later row is one invoice line, and rows with the same invoice_ref make one invoice (they need not be adjacent).
Invoice-level columns may be filled on the invoice's first row only or repeated on each row; a repeated value must not differ (row error), an empty cell takes the value given before.
The supplier is the company of the path. Each invoice goes through the same checks as POST …/invoices (every rule and error code applies); an invoice with any error is not created at all, and the others are created as drafts.
Each created invoice counts against the monthly quota: past it (usage_limit_exceeded) the remaining invoices get a row error naming it.

File: UTF-8 with or without a BOM (Windows-1250 and UTF-16 are refused: save as "CSV UTF-8"). Cells are separated by ; (Slovak Excel) or , (whichever the header holds more of); quoted cells may hold separators, quotes ("") and line breaks.
Header names are compared without case and surrounding spaces, spaces and hyphens counting as _ ("Unit Price" is unit_price); an unknown or repeated column, or a missing required one, fails the job.
Numbers take a decimal point or a decimal comma (1,5 or 1.5; digits grouped by spaces allowed: 1 200,50), not both. Dates are YYYY-MM-DD or D.M.YYYY (15.3.2026). Blank rows are skipped.

Limits: at most ${maxFileBytes} bytes (413 payload_too_large), ${maxDataRows} data rows (more fails the job), ${maxLinesPerInvoice} lines per invoice.
Send the file as the body (Content-Type: text/csv) or as multipart/form-data in the field "${FILE_FIELD}".
Template: GET /invoices/bulk-import/template.csv.

${COLUMN_TABLE}`;

/** The template: the header and three example rows (two invoices), as Slovak Excel opens it (BOM, ;, CRLF). */
function bulkImportTemplate(): string {
  const rows = [0, 1, 2].map((i) => COLUMNS.map((c) => c.example[i] ?? ''));
  return `\uFEFF${stringify([COLUMNS.map((c) => c.name), ...rows], { delimiter: ';', record_delimiter: 'windows' })}`;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function jobBody(row: BulkImportJobRow, invoices: BulkImportJobInvoiceRow[]): BulkImportJob {
  const finished = row.status !== 'processing';
  return {
    job_id: row.id, status: row.status, total_rows: finished ? row.total_rows : null, rows_processed: row.rows_processed, created: row.created,
    errors: finished ? [...row.errors].sort((a, b) => a.row - b.row) : [], errors_total: finished ? row.errors_total : 0,
    invoices: invoices.map((i) => ({ rows: i.rows, invoice_ref: i.invoice_ref, invoice_id: i.invoice_id, invoice_number: i.invoice_number })),
    file_name: row.file_name, created_at: iso(row.requested_at) as string, finished_at: iso(row.finished_at),
  };
}

/** Where a job's status is polled (the Location of the 202). */
const statusPath = (companyId: string, jobId: string) => `${API_PREFIX}/companies/${companyId}/bulk-imports/${jobId}`;

/** A repeat of an enqueue whose first run died after writing its job: the job it made (its id is the one the key seeded). */
const recoverEnqueue = (deps: Pick<Core, 'store'>): Recover => async ({ actor, resourceId }) => {
  const [first] = await deps.store.readStream(bulkImportStream(resourceId));
  if (first?.type !== 'BulkImportRequested') return null;
  const requested = eventData<BulkImportRequested>(first);
  if (requested.organisation_id !== actor.organisationId) return null;
  return {
    status: 202, body: { job_id: requested.job_id, status: 'processing' },
    headers: { location: statusPath(requested.company_id, requested.job_id) },
  };
};

const CompanyParams = Type.Object({ company_id: Uuid });
const gate = { description: '`feature_not_available`: the plan has no bulk import (carries feature, current_plan, upgrade_url); or `insufficient_role`', schema: ErrorBody };

export function bulkImportRoutes(deps: BulkImportRouteDeps): Route[] {
  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/bulk-import', operationId: 'bulkImportInvoices', tags: ['invoices'], auth: 'api', permission: 'invoices.write',
      summary: 'Import invoices from a CSV file: 202 with a job to poll (send an Idempotency-Key to retry an upload safely)',
      description: RULES,
      params: CompanyParams,
      // room for a multipart envelope around the largest file
      bodyLimitBytes: maxFileBytes + 64 * 1024,
      rawBodyDoc: {
        description: `the CSV (see the columns above), at most ${maxFileBytes} bytes`,
        content: {
          'text/csv': Type.String({ contentMediaType: 'text/csv', description: 'the file itself, UTF-8' }),
          'multipart/form-data': Type.Object({ [FILE_FIELD]: Type.String({ contentMediaType: 'text/csv', description: 'the CSV file' }) }),
        },
      },
      responses: {
        202: { description: 'the job, processing; Location names its status', schema: BulkImportAccepted, headers: [LOCATION_HEADER] },
        400: { description: '`unsupported_content_type` (not text/csv or multipart, or a charset other than UTF-8) or `malformed_request` (an unreadable multipart body)', schema: ErrorBody },
        403: gate,
        404: { description: '`company_not_found`', schema: ErrorBody },
        413: { description: `\`payload_too_large\`: the file is over ${maxFileBytes} bytes`, schema: ErrorBody },
        422: { description: '`file_empty`, or `file_missing` (no part named file in a multipart upload)', schema: ErrorBody },
      },
      async handle({ params, actor, requestId, rawBody, headers }) {
        // the gate and the company come before the body is looked at: a plan without bulk import learns that first
        await requireBulkImport(deps, actor);
        await companyOf(deps, actor, params.company_id);
        const upload = await readUpload(rawBody, headers['content-type']);
        const { jobId, position } = await enqueueImport(deps, { actor, requestId, companyId: params.company_id, upload });
        await deps.projections.caughtUp(position, deps.config.readYourWritesTimeoutMs, [BULK_IMPORT_JOBS]);
        return {
          status: 202,
          body: { job_id: jobId, status: 'processing' as const },
          headers: { location: statusPath(params.company_id, jobId) },
        };
      },
    }), { recover: recoverEnqueue(deps) }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/bulk-imports/{job_id}', operationId: 'getBulkImportJob', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'The status of a bulk import: progress while processing, the invoices created with their rows, then the row errors',
      description: 'total_rows is null while processing (rows_processed shows the progress); invoices lists each invoice created so far with its rows, invoice_ref, id and number; errors are listed once the job is completed or failed. A job of another organisation or company is 404.',
      params: Type.Object({ company_id: Uuid, job_id: Uuid }),
      responses: { 200: { description: 'the job', schema: BulkImportJob }, 404: { description: '`company_not_found` / `bulk_import_job_not_found`', schema: ErrorBody } },
      async handle({ params, actor }) {
        const company = await companyOf(deps, actor, params.company_id);
        const row = await getBulkImportJob(deps.readModels, { organisationId: actor.organisationId, companyId: company.id }, params.job_id);
        if (!row) throw new DomainError('bulk_import_job_not_found', 'bulk import job not found');
        return { status: 200, body: jobBody(row, await listBulkImportJobInvoices(deps.readModels, row.id)) };
      },
    }),
    defineRoute({
      method: 'GET', path: '/invoices/bulk-import/template.csv', operationId: 'bulkImportTemplate', tags: ['invoices'], auth: 'public',
      summary: 'The bulk-import CSV template: the header and two example invoices',
      description: 'UTF-8 with a BOM, ; between cells and a decimal comma, as Slovak Excel opens and saves it.',
      responses: { 200: { description: 'the template', schema: CsvRow, mediaType: 'text/csv' } },
      async handle() {
        return {
          status: 200, body: bulkImportTemplate(),
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="invoices-bulk-import-template.csv"' },
        };
      },
    }),
  ];
}
