import { Type } from '@sinclair/typebox';
import { stringify } from 'csv-stringify/sync';
import { requireFeature } from '../../commands/limits/plans.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { exportInvoices } from '../../projections/invoices/queries.ts';
import type { InvoiceRow } from '../../projections/invoices/rows.ts';
import { findOrganisationPlan } from '../../projections/tenancy/queries.ts';
import { ErrorBody, Uuid } from '../../schemas/common/index.ts';
import { companyOf } from '../application/lookups.ts';
import type { Core } from '../core.ts';
import type { Lookups } from '../application/lookups.ts';
import { InvoiceListQuery } from './invoices.ts';
import { defineRoute, type Route } from './route.ts';

/** One export answers at once; more rows than this need a narrower date range. */
export const EXPORT_MAX_ROWS = 10_000;

const COLUMNS = ['id', 'invoice_number', 'invoice_type', 'status', 'issue_date', 'due_date', 'currency_code', 'supplier_name', 'buyer_name', 'buyer_vat_id', 'total_net', 'total_vat', 'total_gross'] as const;

/**
 * A spreadsheet runs a cell that starts with = + - @ (CSV injection): text from clients (names,
 * numbers) is prefixed with ' there. Amounts are numbers and keep their sign.
 */
const TEXT = new Set<string>(['invoice_number', 'supplier_name', 'buyer_name', 'buyer_vat_id']);
const safe = (column: string, value: string | null) => (value !== null && TEXT.has(column) && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value ?? '');

function toCsv(rows: InvoiceRow[]): string {
  const records = rows.map((row) => COLUMNS.map((c) => safe(c, row[c])));
  // a BOM so spreadsheet programs read the UTF-8 (ľ, š, č) as UTF-8
  return `\uFEFF${stringify([[...COLUMNS], ...records], { record_delimiter: 'windows' })}`;
}

export function invoiceExportRoutes(deps: Pick<Core, 'readModels'> & { lookups: Lookups }): Route[] {
  return [
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/export.csv', operationId: 'exportInvoicesCsv', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'The invoice register as CSV (plans with csv_export)',
      description: `The list's filters and order, at most ${EXPORT_MAX_ROWS} rows (422 export_too_large: narrow the dates). UTF-8 with a BOM, comma-separated, CRLF. 403 feature_not_available on a plan without CSV export.`,
      params: Type.Object({ company_id: Uuid }),
      query: Type.Omit(InvoiceListQuery, ['page', 'page_size']),
      responses: {
        200: { description: 'text/csv' },
        403: { description: '`feature_not_available` (carries feature, current_plan, upgrade_url) or `insufficient_role`', schema: ErrorBody },
        404: { description: '`company_not_found`', schema: ErrorBody },
        422: { description: '`export_too_large`', schema: ErrorBody },
      },
      async handle({ params, query, actor }) {
        // the organisation's plan now, whatever plan a token was issued under
        requireFeature(await findOrganisationPlan(deps.readModels, actor.organisationId), 'csv_export');
        const company = await companyOf(deps, actor, params.company_id);
        const rows = await exportInvoices(deps.readModels, { organisationId: actor.organisationId, companyId: company.id }, {
          q: query.q, statuses: query.status?.split(','), fromDate: query.from_date, toDate: query.to_date, createdBy: query.created_by, sort: query.sort,
        }, EXPORT_MAX_ROWS);
        if (rows.length > EXPORT_MAX_ROWS) throw new DomainError('export_too_large', 422, `more than ${EXPORT_MAX_ROWS} invoices match: narrow from_date/to_date`, { max_rows: EXPORT_MAX_ROWS });
        return {
          status: 200,
          body: toCsv(rows),
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="invoices-${company.id}.csv"` },
        };
      },
    }),
  ];
}
