import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { stringify } from 'csv-stringify/sync';
import { CSV_DIALECTS, type CsvDialect } from '../../../commands/exports/csv-cells.ts';
import { INVOICE_CSV_COLUMNS, invoiceCsvHeader, invoiceCsvRecord } from '../../../commands/exports/invoice-register-csv.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { exportInvoiceIds, invoiceRowsByIds } from '../../../projections/invoices/queries.ts';
import { ErrorBody, Uuid } from '../../../schemas/common/index.ts';
import { checkExportAllowed } from './export-gate.ts';
import { companyOf, type Lookups } from '../invoices/index.ts';
import type { Core } from '../../platform/core.ts';
import { InvoiceListQuery } from '../invoices/index.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';

/** One export lists at most this many invoices; more need a narrower date range (422 export_too_large). */
const EXPORT_MAX_ROWS = 100_000;
/** Rows read and written per step of the stream. */
const CHUNK_ROWS = 500;

export interface InvoiceExportDeps extends Pick<Core, 'readModels'> {
  lookups: Lookups;
  /** rows per step of the stream (tests make it small to see several steps) */
  chunkRows?: number;
  /** the most invoices one export lists (default EXPORT_MAX_ROWS) */
  maxRows?: number;
}

const DESCRIPTION = `The invoice register of the company as CSV, for the accountant: the list's filters (q, status, from_date, to_date,
created_by) and order (sort), every matching invoice (no paging), at most ${EXPORT_MAX_ROWS.toLocaleString('en')} (422 \`export_too_large\`
beyond: narrow from_date/to_date).

- **Plan-gated:** plans with \`csv_export\` (Solo Starter and up); any other plan gets 403 \`feature_not_available\` whether the
  caller uses an API key, a user's token or an OAuth client's token.
- **Streamed:** the matching invoices are fixed when the request starts, then written in steps of ${CHUNK_ROWS} rows as they are read,
  so memory stays flat whatever the size (an invoice changed meanwhile shows its newer values).
- **Format:** UTF-8 with a BOM, CRLF, a header row, RFC 4180 quoting. Columns: ${INVOICE_CSV_COLUMNS.map((c) => `\`${c.name}\``).join(', ')}.
- **Formula injection:** a text cell starting with \`=\`, \`+\`, \`-\`, \`@\`, tab or CR is prefixed with \`'\` so a spreadsheet shows it
  as text. Every column but the three totals is text.
- **Amounts stay numbers:** total_net, total_vat and total_gross are plain decimals (a credit note's are negative, with a plain minus).
- **dialect:** \`rfc4180\` (default: comma, decimal point) or \`excel-sk\` (semicolon, decimal comma: what Excel with Slovak regional
  settings opens with a double click, amounts still numeric).`;

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** The CSV as it is read: the BOM and header first, then each chunk of rows. */
async function* csvSteps(deps: InvoiceExportDeps, organisationId: string, ids: string[], dialect: CsvDialect): AsyncGenerator<Buffer> {
  const options = { delimiter: dialect.delimiter, record_delimiter: 'windows' } as const;
  // the BOM makes spreadsheet programs read the UTF-8 (ľ, š, č) as UTF-8
  yield bytes(`\uFEFF${stringify([invoiceCsvHeader()], options)}`);
  const step = deps.chunkRows ?? CHUNK_ROWS;
  for (let i = 0; i < ids.length; i += step) {
    const rows = await invoiceRowsByIds(deps.readModels, organisationId, ids.slice(i, i + step));
    if (rows.length > 0) yield bytes(stringify(rows.map((row) => invoiceCsvRecord(row, dialect)), options));
  }
}

export function invoiceExportRoutes(deps: InvoiceExportDeps): Route[] {
  return [
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/export.csv', operationId: 'exportInvoicesCsv', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'The invoice register as CSV, streamed (plans with csv_export)',
      description: DESCRIPTION,
      params: Type.Object({ company_id: Uuid }),
      query: Type.Object({
        ...Type.Omit(InvoiceListQuery, ['page', 'page_size']).properties,
        dialect: Type.Optional(Type.Union([Type.Literal('rfc4180'), Type.Literal('excel-sk')], { description: 'rfc4180 (default: comma, decimal point) or excel-sk (semicolon, decimal comma)' })),
      }),
      responses: {
        200: { description: 'UTF-8 with a BOM, streamed', schema: Type.String(), mediaType: 'text/csv' },
        403: { description: '`feature_not_available` (carries feature, current_plan, upgrade_url) or `insufficient_role`', schema: ErrorBody },
        404: { description: '`company_not_found`', schema: ErrorBody },
        422: { description: '`export_too_large` (carries max_rows), or a bad filter', schema: ErrorBody },
      },
      async handle({ params, query, actor }) {
        await checkExportAllowed(deps, actor, 'invoice_register_csv');
        const company = await companyOf(deps, actor, params.company_id);
        const maxRows = deps.maxRows ?? EXPORT_MAX_ROWS;
        const ids = await exportInvoiceIds(deps.readModels, { organisationId: actor.organisationId, companyId: company.id }, {
          q: query.q, statuses: query.status?.split(','), fromDate: query.from_date, toDate: query.to_date, createdBy: query.created_by, sort: query.sort,
        }, maxRows);
        if (ids.length > maxRows) {
          throw new DomainError('export_too_large', `more than ${maxRows} invoices match: narrow from_date/to_date`, { max_rows: maxRows });
        }
        const dialect = CSV_DIALECTS[query.dialect ?? 'rfc4180'];
        return {
          status: 200,
          body: Readable.from(csvSteps(deps, actor.organisationId, ids, dialect)),
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="invoices-${company.id}.csv"`,
            'cache-control': 'no-store',
          },
        };
      },
    }),
  ];
}
