import { Type } from '@sinclair/typebox';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { stableUuid } from '../../../commands/shared/stable-id.ts';
import { INVOICE_TYPE_CODES, type BillingReference } from '../../../commands/invoices/model.ts';
import { issuingCompany } from '../../../commands/tenancy/issuing-company.ts';
import type { Delivery, PeppolMls } from '../../../commands/invoices/delivery.ts';
import { invoiceStream, type InvoiceStatus } from '../../../events/invoices.ts';
import { createdInvoiceRow, type InvoiceDetailRow, type InvoiceRow } from '../../../projections/invoices/rows.ts';
import { INVOICE_REGISTER, INVOICE_SORT_COLUMNS, getInvoice, invoiceDegraded, listInvoices, type InvoiceScope } from '../../../projections/invoices/queries.ts';
import { listCompanies } from '../../../projections/tenancy/queries.ts';
import type { CompanyRow } from '../../../projections/tenancy/rows.ts';
import { ErrorBody, IsoDate, MAX_Q_LENGTH, Page, PageQuery, Uuid } from '../../../schemas/common/index.ts';
import { Invoice, InvoiceListRow, InvoiceRequest } from '../../../schemas/invoices.ts';
import { createInvoice, invoiceVisibleTo, nextInvoiceNumber, updateInvoice, withCodeLists } from './invoices.ts';
import { companyOf } from './lookups.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import { readCurrent } from '../../platform/readmodel/current-read.ts';
import { readModelDegraded } from '../../platform/readmodel/failures.ts';
import type { InvoicingDeps } from './invoices.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { idempotent } from '../idempotency/index.ts';
import { recoverInvoiceCreate } from './recovery.ts';
import { API_PREFIX } from '../../doors/native/prefix.ts';
import { loadInvoice, type LoadedInvoice } from './invoice-documents.ts';
import { freshSettlement, type SettlementFields } from '../payments/index.ts';
import { listPage, pageRequest } from '../../doors/native/list-page.ts';
import { ETAG_HEADER, LOCATION_HEADER, ifMatchHeader } from '../../platform/http/index.ts';

const STATUSES: InvoiceStatus[] = ['draft', 'validated', 'approved', 'pending_approval', 'queued', 'sent_peppol', 'delivered', 'sent_fs', 'fs_acknowledged', 'failed', 'rejected', 'cancelled', 'voided'];
const sortKey = `-?(?:${INVOICE_SORT_COLUMNS.join('|')})`;
export const InvoiceListQuery = Type.Object({
  ...PageQuery.properties,
  q: Type.Optional(Type.String({ maxLength: MAX_Q_LENGTH, description: 'case-insensitive substring of the invoice number, supplier name or buyer name' })),
  status: Type.Optional(Type.String({ pattern: `^(?:${STATUSES.join('|')})(?:,(?:${STATUSES.join('|')}))*$`, description: 'comma-separated statuses' })),
  from_date: Type.Optional(IsoDate({ description: 'issue_date on or after' })),
  to_date: Type.Optional(IsoDate({ description: 'issue_date on or before' })),
  created_by: Type.Optional(Type.String({ maxLength: 64, description: 'id of the API key or user that created the invoice' })),
  sort: Type.Optional(Type.String({ pattern: `^${sortKey}(?:,${sortKey})*$`, description: `comma-separated of ${INVOICE_SORT_COLUMNS.join(', ')}; - for descending; default -issue_date,-created_at` })),
});
const CompanyParams = Type.Object({ company_id: Uuid });
const InvoiceParams = Type.Object({ company_id: Uuid, invoice_id: Uuid });
const notFound = { description: '`company_not_found` / `invoice_not_found` (also for another organisation’s, or another company’s)', schema: ErrorBody };
const behind = '`read_model_behind`: the invoice is stored at a newer version (`version`) than the read model showed within the read-your-writes bound, for example while another instance takes projection over; read it again after `retry_after` seconds';
const degraded = { description: `\`read_model_degraded\`: an event of this invoice could not be projected (operators: \`projections status\`); ${behind}`, schema: ErrorBody };
const ruleErrors = { description: 'request-body errors, or the invoice-validation flavour {message, errors[], warnings[]} when business rules fail: errors[] holds only what refuses the invoice' };

const iso = (d: Date) => d.toISOString();

/** The full invoice as the spec names its fields: request fields, computed totals, delivery state. */
/** The register's row of a document, made from its own stream instead (a history as_of, or a read model behind its write). */
export function invoiceRowOf(loaded: LoadedInvoice): InvoiceDetailRow {
  const { state, events } = loaded;
  const first = events[0];
  const last = events[events.length - 1];
  const credited_invoice = state.credited_invoice ?? undefined;
  return {
    id: state.invoice_id, organisation_id: state.organisation_id, company_id: state.company_id, workspace_id: state.workspace_id,
    invoice_number: state.invoice_number, invoice_type: state.content.invoice_type, status: state.status, issue_date: state.content.issue_date,
    due_date: state.content.due_date, currency_code: state.content.currency_code, supplier_name: state.content.supplier.name,
    buyer_name: state.content.buyer.name, buyer_vat_id: state.content.buyer.vat_id, customer_id: state.content.customer_id,
    total_net: state.totals.total_net, total_vat: state.totals.total_vat, total_gross: state.totals.total_gross, source: state.source,
    peppol_message_id: state.delivery.peppol.message_id, fs_submission_id: state.delivery.fs.submission_id, delivery: state.delivery,
    created_by: String(first?.data.created_by ?? first?.data.sender_participant_id ?? ''), created_at: first?.recordedAt ?? new Date(0), updated_at: last?.recordedAt ?? new Date(0),
    version: loaded.version, document: { content: state.content, totals: state.totals, warnings: state.warnings, ...(credited_invoice ? { credited_invoice } : {}) },
  };
}

export function invoiceBody(row: InvoiceDetailRow, settled: SettlementFields = freshSettlement(row)): Invoice {
  const { content, totals, warnings } = row.document;
  const amounts = new Map(totals.lines.map((l) => [l.line_number, l]));
  return {
    id: row.id, company_id: row.company_id, status: row.status, source: row.source,
    invoice_number: content.invoice_number, invoice_type: content.invoice_type, issue_date: content.issue_date, due_date: content.due_date,
    delivery_date: content.delivery_date, currency_code: content.currency_code, supplier: content.supplier, buyer: content.buyer,
    customer_id: content.customer_id, supplier_iban: content.supplier_iban, payment_means_code: content.payment_means_code,
    variable_symbol: content.variable_symbol, note: content.note, buyer_reference: content.buyer_reference, order_reference: content.order_reference,
    preceding_invoice: precedingInvoiceOf(content.billing_reference, row.document.credited_invoice?.invoice_id),
    lines: content.lines.map((line) => {
      const a = amounts.get(line.line_number);
      return {
        id: stableUuid(row.id, 'line', String(line.line_number)), ...line,
        line_net: a?.line_net ?? '0.00', line_vat: a?.line_vat ?? '0.00', line_gross_amount: a?.line_gross_amount ?? '0.00',
      };
    }),
    total_net: totals.total_net, total_vat: totals.total_vat, total_gross: totals.total_gross, vat_breakdown: totals.vat_breakdown,
    zzz_correction_amount: totals.zzz_correction_amount, allowances_charges: totals.allowances_charges,
    payable_rounding_amount: totals.payable_rounding_amount, amount_due: settled.amount_due, warnings,
    peppol_message_id: row.peppol_message_id, fs_submission_id: row.fs_submission_id,
    ...deliveryDetail(row.delivery),
    created_by: row.created_by, created_at: iso(row.created_at), updated_at: iso(row.updated_at), version: row.version,
    credited_invoice: row.document.credited_invoice ?? null,
    credited_amount: settled.credited_amount, payment_status: settled.payment_status, credit_notes: settled.credit_notes, settlement: settled.settlement,
  };
}

/** BG-3 as the API shows it: a credit note made through the credit-note route knows its invoice's id too. */
function precedingInvoiceOf(reference: BillingReference | null, creditedId: string | undefined): Invoice['preceding_invoice'] {
  if (!reference) return null;
  return { id: reference.invoice_id ?? creditedId ?? null, number: reference.invoice_number, issue_date: reference.issue_date };
}

/** The two legs beside the status: `c5` is the FS filing detail, `peppol_delivery` the Peppol leg. */
function deliveryDetail(delivery: Delivery | null): Pick<Invoice, 'c5' | 'peppol_delivery'> {
  if (!delivery || delivery.peppol.status === 'not_sent') return { c5: null, peppol_delivery: null };
  const { peppol, fs } = delivery;
  return {
    c5: {
      status: fs.status, reporter_role: fs.reporter_role, submission_id: fs.submission_id, tdd_uuid: fs.tdd_uuid,
      mls_response_code: fs.mls_response_code, submitted_at: fs.submitted_at, acknowledged_at: fs.acknowledged_at,
      rejected_at: fs.rejected_at, reasons: fs.reasons, attempts: fs.attempts, error: fs.error,
    },
    peppol_delivery: {
      status: peppol.status, message_id: peppol.message_id, receiver_participant_id: peppol.receiver_participant_id,
      attempts: peppol.attempts, error: peppol.error, findings: peppol.findings, queued_at: peppol.queued_at, sent_at: peppol.sent_at,
      delivered_at: peppol.delivered_at, failed_at: peppol.failed_at, ...mlsDetail(peppol.mls ?? null),
    },
  };
}

/** The MLS fields of `peppol_delivery` (null and empty until the receiving Access Point's MLS came). */
function mlsDetail(mls: PeppolMls | null) {
  return {
    mls_response_code: mls?.response_code ?? null, mls_description: mls?.description ?? null, mls_received_at: mls?.received_at ?? null,
    mls_reasons: (mls?.issues ?? []).map((i) => ({ location: i.location, description: i.description, reason_code: i.reason })),
  };
}

function listRow(r: InvoiceRow) {
  return {
    id: r.id, company_id: r.company_id, source: r.source, invoice_number: r.invoice_number, invoice_type: r.invoice_type, status: r.status, issue_date: r.issue_date,
    due_date: r.due_date, currency_code: r.currency_code, supplier_name: r.supplier_name, buyer_name: r.buyer_name, total_net: r.total_net,
    total_vat: r.total_vat, total_gross: r.total_gross, created_by: r.created_by, created_at: iso(r.created_at), updated_at: iso(r.updated_at), version: r.version,
  };
}

export function invoiceRoutes(deps: InvoicingDeps): Route[] {
  const { readModels, projections, config } = deps;
  const invoicing = () => withCodeLists(deps);

  /** The invoice as its stream stands: after `written` (a command's own append), else after the stream's last event, whichever instance wrote it. */
  async function readAfter(written: { position: Position; version: number } | undefined, scope: InvoiceScope, id: string) {
    const [row, degraded] = await readCurrent(deps, {
      stream: invoiceStream(id), projectors: [INVOICE_REGISTER], resource: 'invoice', written,
      read: () => Promise.all([getInvoice(readModels, scope, id), invoiceDegraded(readModels, scope, id)]),
      versionOf: ([found]) => found?.version,
      visible: () => invoiceVisibleTo(deps, scope, id),
    });
    if (degraded) throw readModelDegraded('invoice'); // missing or stale: neither a 404 nor the row would be true
    if (!row) throw new DomainError('invoice_not_found', 'invoice not found');
    return invoiceBody(row, await deps.settlement(row));
  }

  async function create(actor: Actor, requestId: string, company: CompanyRow, body: InvoiceRequest) {
    const created = await createInvoice(invoicing(), { actor, requestId, company, body });
    // the answer follows from the decided event; the wait keeps a GET right after it consistent
    await projections.caughtUp(created.position, config.readYourWritesTimeoutMs, [INVOICE_REGISTER]);
    const invoice = invoiceBody(createdInvoiceRow(created.event.data, created.version));
    return { status: 201, body: invoice, headers: { etag: `"${invoice.version}"`, location: `${API_PREFIX}/companies/${company.id}/invoices/${invoice.id}` } };
  }

  const createResponses = {
    201: { description: 'the draft with its computed totals', schema: Invoice, headers: [ETAG_HEADER, LOCATION_HEADER] },
    404: notFound,
    409: { description: '`invoice_number_conflict`: the number is used in the organisation and tax year', schema: ErrorBody },
    422: ruleErrors,
  };
  const list = async (actor: Actor, companyId: string | null, query: typeof InvoiceListQuery.static) => {
    const found = await listInvoices(readModels, { organisationId: actor.organisationId, companyId }, {
      ...pageRequest(query), q: query.q, statuses: query.status?.split(','), fromDate: query.from_date,
      toDate: query.to_date, createdBy: query.created_by, sort: query.sort,
    });
    return { status: 200, body: listPage(found, query, listRow) };
  };
  const read = async (actor: Actor, companyId: string | null, invoiceId: string) => {
    const invoice = await readAfter(undefined, { organisationId: actor.organisationId, companyId }, invoiceId);
    return { status: 200, body: invoice, headers: { etag: `"${invoice.version}"` } };
  };

  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices', operationId: 'createInvoice', tags: ['invoices'], auth: 'api', permission: 'invoices.write',
      summary: 'Create a draft invoice; the service computes every total',
      description: 'Omit invoice_number to reserve the next one of the workspace series (default pattern {year}{seq:6}; credit notes DOB-{year}-{seq}). Business rules are checked before a number is reserved.',
      params: CompanyParams, body: InvoiceRequest, responses: createResponses,
      async handle({ params, body, actor, requestId }) {
        const company = await companyOf(deps, actor, params.company_id);
        return create(actor, requestId, company, body);
      },
    }), { recover: recoverInvoiceCreate(deps, invoiceBody) }),
    idempotent(deps, defineRoute({
      method: 'POST', path: '/invoices', operationId: 'createInvoiceUnscoped', tags: ['invoices'], auth: 'api', permission: 'invoices.write',
      summary: 'Create a draft invoice; the issuing company is the one whose VAT ID is supplier.vat_id',
      body: InvoiceRequest, responses: createResponses,
      async handle({ body, actor, requestId }) {
        const company = issuingCompany(await listCompanies(readModels, actor.organisationId), body.supplier?.vat_id);
        return create(actor, requestId, company, body);
      },
    }), { recover: recoverInvoiceCreate(deps, invoiceBody) }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices', operationId: 'listInvoices', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'List invoices (slim rows); full record at GET …/invoices/{invoice_id}', params: CompanyParams, query: InvoiceListQuery,
      responses: { 200: { description: 'one page', schema: Page(InvoiceListRow) }, 404: notFound },
      async handle({ params, query, actor }) {
        await companyOf(deps, actor, params.company_id);
        return list(actor, params.company_id, query);
      },
    }),
    defineRoute({
      method: 'GET', path: '/invoices', operationId: 'listInvoicesUnscoped', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'List invoices of every company of the organisation', query: InvoiceListQuery,
      responses: { 200: { description: 'one page', schema: Page(InvoiceListRow) } },
      handle: async ({ query, actor }) => list(actor, null, query),
    }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/numbering/next', operationId: 'previewInvoiceNumber', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'Preview the number the next invoice (or credit note) would get; nothing is reserved',
      params: CompanyParams,
      query: Type.Object({
        invoice_type: Type.Optional(Type.Union(INVOICE_TYPE_CODES.map((c) => Type.Literal(c)), { description: '381 previews the credit-note series' })),
        year: Type.Optional(Type.String({ pattern: '^\\d{4}$', description: 'tax year; default the current year' })),
      }),
      responses: { 200: { description: 'the next number', schema: Type.Object({ invoice_number: Type.String(), series: Type.String(), year: Type.String() }) }, 404: notFound },
      async handle({ params, query, actor }) {
        const company = await companyOf(deps, actor, params.company_id);
        const kind = query.invoice_type === '381' ? 'credit_note' : 'invoice';
        const year = query.year ?? String(deps.clock.now().getUTCFullYear());
        return { status: 200, body: { invoice_number: await nextInvoiceNumber(invoicing(), company, kind, year), series: kind, year } };
      },
    }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/{invoice_id}', operationId: 'getInvoice', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'Read one invoice with every computed field; ETag carries its version', params: InvoiceParams,
      responses: { 200: { description: 'the invoice', schema: Invoice, headers: [ETAG_HEADER] }, 404: notFound, 503: degraded },
      async handle({ params, actor }) {
        await companyOf(deps, actor, params.company_id);
        return read(actor, params.company_id, params.invoice_id);
      },
    }),
    defineRoute({
      method: 'GET', path: '/invoices/{invoice_id}', operationId: 'getInvoiceUnscoped', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'Read one invoice of any company of the organisation', params: Type.Object({ invoice_id: Uuid }),
      responses: { 200: { description: 'the invoice', schema: Invoice, headers: [ETAG_HEADER] }, 404: notFound, 503: degraded },
      handle: async ({ params, actor }) => read(actor, null, params.invoice_id),
    }),
    defineRoute({
      method: 'PUT', path: '/companies/{company_id}/invoices/{invoice_id}', operationId: 'replaceInvoice', tags: ['invoices'], auth: 'api', permission: 'invoices.write',
      summary: 'Replace the request fields of a draft, validated or approved invoice (it becomes a draft again)',
      description: 'If-Match with the version is required (428 without it, 412 when stale). Replacing an approved invoice voids its approval (GET …/approval shows `voided`, which change, when and by whom) and it is sent only once a new request is approved; one pending approval is not replaced. Other statuses: 409 invalid_status. A credit note made through the credit-note route: 409 locked_credit_note. What can never be replaced (404, 409 invalid_status, 409 locked_credit_note) is answered so first, before 428 and 412; the body\'s own refusals come after them. The number cannot change (409 invoice_number_immutable).',
      params: InvoiceParams, body: InvoiceRequest,
      headerDocs: [ifMatchHeader('the version read (its `version` or ETag): 428 `if_match_required` without it, 412 when stale', true)],
      responses: {
        200: { description: 'the invoice as replaced', schema: Invoice, headers: [ETAG_HEADER] },
        404: notFound,
        409: { description: '`invalid_status`, `locked_credit_note`, `invoice_number_immutable`', schema: ErrorBody },
        412: { description: '`version_mismatch`: If-Match is stale', schema: ErrorBody },
        422: ruleErrors,
        428: { description: '`if_match_required`', schema: ErrorBody },
      },
      async handle({ params, body, actor, requestId, ifMatch }) {
        const company = await companyOf(deps, actor, params.company_id);
        const scope = { organisationId: actor.organisationId, companyId: company.id };
        const updated = await updateInvoice(invoicing(), { actor, requestId, company, invoiceId: params.invoice_id, body, expectedVersion: ifMatch });
        const written = updated.position ? { position: updated.position, version: updated.version } : undefined;
        const invoice = await readAfter(written, scope, params.invoice_id).catch(async (error: unknown) => {
          if (!(error instanceof DomainError) || (error.code !== 'read_model_behind' && error.code !== 'read_model_degraded')) throw error;
          // the replacement is stored: like a create's, its answer follows from the stream itself
          const row = invoiceRowOf(await loadInvoice(deps, scope, params.invoice_id));
          return invoiceBody(row, await deps.settlement(row));
        });
        return { status: 200, body: invoice, headers: { etag: `"${invoice.version}"` } };
      },
    }),
  ];
}
