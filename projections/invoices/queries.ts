import type { DataSource } from 'typeorm';
import { invoiceStream } from '../../events/invoices.ts';
import { containsPattern, foldText } from '../shared/fold.ts';
import { settlementFactsOf, settlementFactsSql, type InvoiceSettlementFacts, type SettlementFactsRow } from '../payments/queries.ts';
import type { InvoiceDetailRow, InvoiceRow } from './rows.ts';

/** The register's projector name, under which projection_failures records what it parked. */
export const INVOICE_REGISTER = 'invoices';

export const INVOICE_SORT_COLUMNS = ['issue_date', 'due_date', 'invoice_number', 'status', 'total_gross', 'buyer_name', 'created_at', 'updated_at'] as const;
type SortColumn = (typeof INVOICE_SORT_COLUMNS)[number];
const DEFAULT_INVOICE_SORT = '-issue_date,-created_at';

export interface InvoiceScope {
  organisationId: string;
  /** null on the unscoped routes: every company of the organisation */
  companyId: string | null;
}

interface InvoiceListFilter {
  page: number;
  pageSize: number;
  q?: string;
  statuses?: string[];
  fromDate?: string;
  toDate?: string;
  createdBy?: string;
  sort?: string;
}

const COLUMNS = `id, organisation_id, company_id, workspace_id, invoice_number, invoice_type, status,
  to_char(issue_date, 'YYYY-MM-DD') AS issue_date, to_char(due_date, 'YYYY-MM-DD') AS due_date, currency_code,
  supplier_name, buyer_name, buyer_vat_id, customer_id, total_net::text AS total_net, total_vat::text AS total_vat,
  total_gross::text AS total_gross, created_by, created_at, updated_at, version, source, peppol_message_id, fs_submission_id`;

/** WHERE clause and parameters of a scope and filter; every value goes in as a parameter. */
function where(scope: InvoiceScope, filter: Partial<InvoiceListFilter>): { sql: string; params: unknown[] } {
  const params: unknown[] = [scope.organisationId];
  const clauses = ['organisation_id = $1'];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  if (scope.companyId) add((n) => `company_id = ${n}`, scope.companyId);
  if (filter.q) add((n) => `search LIKE ${n}`, containsPattern(foldText(filter.q)));
  if (filter.statuses?.length) add((n) => `status = ANY(${n})`, filter.statuses);
  if (filter.fromDate) add((n) => `issue_date >= ${n}`, filter.fromDate);
  if (filter.toDate) add((n) => `issue_date <= ${n}`, filter.toDate);
  if (filter.createdBy) add((n) => `created_by = ${n}`, filter.createdBy);
  return { sql: clauses.join(' AND '), params };
}

function orderBy(sort: string | undefined): string {
  const keys = (sort || DEFAULT_INVOICE_SORT).split(',').filter(Boolean);
  const order = keys.map((key) => `${key.replace(/^-/, '') as SortColumn} ${key.startsWith('-') ? 'DESC' : 'ASC'}`);
  return [...order, 'id ASC'].join(', '); // columns come from a validated list; id keeps pages stable
}

export async function listInvoices(db: DataSource, scope: InvoiceScope, filter: InvoiceListFilter): Promise<{ items: InvoiceRow[]; total: number }> {
  const { sql, params } = where(scope, filter);
  const offset = (filter.page - 1) * filter.pageSize;
  const [items, count] = await Promise.all([
    db.query(`SELECT ${COLUMNS} FROM invoices WHERE ${sql} ORDER BY ${orderBy(filter.sort)} LIMIT ${filter.pageSize} OFFSET ${offset}`, params) as Promise<InvoiceRow[]>,
    db.query(`SELECT count(*)::int AS n FROM invoices WHERE ${sql}`, params) as Promise<{ n: number }[]>,
  ]);
  return { items, total: count[0]?.n ?? 0 };
}

export async function getInvoice(db: DataSource, scope: InvoiceScope, id: string): Promise<InvoiceDetailRow | null> {
  const { sql, params } = where(scope, {});
  const rows: InvoiceDetailRow[] = await db.query(`SELECT ${COLUMNS}, document, delivery FROM invoices WHERE ${sql} AND id = $${params.length + 1}`, [...params, id]);
  return rows[0] ?? null;
}

type WithCreditedFacts = InvoiceDetailRow & {
  credited_invoice_id: string | null;
  /** null: no credited invoice, or the register lacks it */
  facts_found: boolean | null;
  facts_payable: string | null;
  facts_credit_notes: SettlementFactsRow['credit_notes'];
  facts_payments: SettlementFactsRow['payments'];
};

/**
 * getInvoice, and when the row is a credit note made through the credit-note route, the
 * settlement facts of the invoice it credits (invoiceSettlementFacts), in one statement: what a
 * credit note's answer shows costs one round trip, not two. Any other document comes with
 * creditedInvoiceId null; `facts` is null when the register lacks the credited invoice.
 */
export async function getInvoiceWithCreditedFacts(
  db: DataSource, scope: InvoiceScope, id: string,
): Promise<{ row: InvoiceDetailRow; creditedInvoiceId: string; facts: InvoiceSettlementFacts | null } | { row: InvoiceDetailRow; creditedInvoiceId: null } | null> {
  const { sql, params } = where(scope, {});
  const rows: WithCreditedFacts[] = await db.query(
    `SELECT ${COLUMNS}, document, delivery, d.document->'credited_invoice'->>'invoice_id' AS credited_invoice_id,
       f.found AS facts_found, f.payable AS facts_payable, f.credit_notes AS facts_credit_notes, f.payments AS facts_payments
     FROM invoices d
     LEFT JOIN LATERAL (SELECT true AS found, x.* FROM (${settlementFactsSql("(d.document->'credited_invoice'->>'invoice_id')::uuid")}) x) f ON true
     WHERE ${sql} AND id = $${params.length + 1}`,
    [...params, id],
  );
  const found = rows[0];
  if (!found) return null;
  const { credited_invoice_id: creditedInvoiceId, facts_found: factsFound, facts_payable: payable, facts_credit_notes: creditNotes, facts_payments: payments, ...row } = found;
  if (creditedInvoiceId === null) return { row, creditedInvoiceId: null };
  return { row, creditedInvoiceId, facts: factsFound ? settlementFactsOf(creditedInvoiceId, { payable: payable as string, credit_notes: creditNotes, payments }) : null };
}

/**
 * Whether the register parked an event of this invoice (its row is missing or stale): for the
 * caller's organisation only, the parked event's own or the row's, so no other learns the id exists.
 */
export async function invoiceDegraded(db: DataSource, scope: InvoiceScope, id: string): Promise<boolean> {
  const rows: { degraded: boolean }[] = await db.query(
    `SELECT EXISTS (
       SELECT 1 FROM projection_failures f WHERE f.name = $1 AND f.stream_id = $2
         AND (f.organisation_id = $3 OR EXISTS (SELECT 1 FROM invoices i WHERE i.id = $4 AND i.organisation_id = $5))
     ) AS degraded`,
    [INVOICE_REGISTER, invoiceStream(id), scope.organisationId, id, scope.organisationId],
  );
  return rows[0]?.degraded === true;
}

/**
 * What an MLS referencing `messageId` may answer among invoices: the sent invoice whose Peppol
 * message it is, and the invoice (sent or received) whose FS leg sent the tax data document with
 * that id. One statement for both: an MLS that answers neither (a SAPI-SK document's, a report's)
 * asked twice before its own matchers were tried.
 */
export async function findInvoicesAnsweredBy(db: DataSource, messageId: string): Promise<{ sent: InvoiceRef | null; filed: InvoiceRef | null }> {
  const rows: (InvoiceRef & { sent: boolean; filed: boolean })[] = await db.query(
    `SELECT id, organisation_id, (peppol_message_id = $1 AND source = 'api') AS sent, (fs_submission_id = $1) AS filed FROM invoices
     WHERE (peppol_message_id = $1 AND source = 'api') OR fs_submission_id = $1`,
    [messageId],
  );
  const ref = (row: InvoiceRef | undefined) => (row ? { id: row.id, organisation_id: row.organisation_id } : null);
  return { sent: ref(rows.find((r) => r.sent)), filed: ref(rows.find((r) => r.filed)) };
}

interface InvoiceRef {
  id: string;
  organisation_id: string;
}

/**
 * The ids of an export: the list's filter and order, up to `limit` (+1, so the caller can tell it
 * was cut). The export then reads their rows in chunks (`invoiceRowsByIds`), so which invoices it
 * lists and in what order is fixed by this one statement, and no transaction stays open while a
 * client downloads (PGlite would run nothing else meanwhile).
 */
export async function exportInvoiceIds(db: DataSource, scope: InvoiceScope, filter: Omit<InvoiceListFilter, 'page' | 'pageSize'>, limit: number): Promise<string[]> {
  const { sql, params } = where(scope, filter);
  const rows: { id: string }[] = await db.query(`SELECT id FROM invoices WHERE ${sql} ORDER BY ${orderBy(filter.sort)} LIMIT ${limit + 1}`, params);
  return rows.map((r) => r.id);
}

/** The register rows of these invoices of the organisation, in the order of `ids`. */
export async function invoiceRowsByIds(db: DataSource, organisationId: string, ids: readonly string[]): Promise<InvoiceRow[]> {
  if (ids.length === 0) return [];
  const rows: InvoiceRow[] = await db.query(`SELECT ${COLUMNS} FROM invoices WHERE organisation_id = $1 AND id = ANY($2::uuid[])`, [organisationId, ids]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
