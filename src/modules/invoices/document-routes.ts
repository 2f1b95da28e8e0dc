import { Type } from '@sinclair/typebox';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { ErrorBody, Uuid } from '../../../schemas/common/index.ts';
import { Invoice } from '../../../schemas/invoices.ts';
import { loadInvoice, invoiceUbl, validateInvoice, type LoadedInvoice } from './invoice-documents.ts';
import { companyOf } from './lookups.ts';
import { withCodeLists, type InvoicingDeps } from './invoices.ts';
import type { ValidatorSource } from '../../platform/validation/index.ts';
import { invoiceBody, invoiceRowOf } from './routes.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';

const InvoiceParams = Type.Object({ company_id: Uuid, invoice_id: Uuid });
const notFound = { description: '`company_not_found` / `invoice_not_found`', schema: ErrorBody };
const Finding = Type.Object({
  rule: Type.String(), message: Type.String(), severity: Type.String(),
  field: Type.Optional(Type.String()), location: Type.Optional(Type.String()), source: Type.Optional(Type.String()),
});
const ValidateResponse = Type.Object({
  valid: Type.Boolean(),
  errors: Type.Array(Finding),
  warnings: Type.Array(Finding),
  xml_validation: Type.Object({
    release: Type.String({ description: 'Extension to the native spec: the rule release the UBL was checked under, the one in force now (e.g. `peppol-bis-3.0.21`); see docs/validation.md' }),
    xsd_valid: Type.Union([Type.Boolean(), Type.Null()]),
    peppol_valid: Type.Union([Type.Boolean(), Type.Null()], { description: 'CEN EN16931 + Peppol BIS of the release in `release`; null when the rules are not available' }),
    slovak_valid: Type.Union([Type.Boolean(), Type.Null()]),
    errors: Type.Array(Finding),
    warnings: Type.Array(Finding),
  }),
  schemas_available: Type.Object({ xsd_invoice: Type.Boolean(), schematron_peppol: Type.Boolean(), schematron_slovak: Type.Boolean() }),
  status: Type.String(),
});
const HistoryEntry = Type.Object({
  version: Type.Integer(), type: Type.String(), recorded_at: Type.String({ format: 'date-time' }),
  actor: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }, { additionalProperties: true }), Type.Null()]),
  data: Type.Object({}, { additionalProperties: true }),
});

/** The invoice as it stood at the end of `loaded` (history as_of), in the same shape as GET. */
function invoiceAsOf(loaded: LoadedInvoice): Invoice {
  return invoiceBody(invoiceRowOf(loaded));
}

/** Validation, the UBL document and the audit history of one invoice. */
export function invoiceDocumentRoutes(deps: InvoicingDeps & { validator: ValidatorSource }): Route[] {
  const scopeOf = async (actor: Parameters<typeof companyOf>[1], companyId: string) => {
    await companyOf(deps, actor, companyId);
    return { organisationId: actor.organisationId, companyId };
  };
  return [
    defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/{invoice_id}/validate', operationId: 'validateInvoice', tags: ['invoices'], auth: 'api', permission: 'invoices.write',
      summary: 'Check business rules, UBL XSD, CEN/Peppol and Slovak rules; a passing draft becomes validated',
      params: InvoiceParams,
      responses: { 200: { description: 'the findings; `valid` only when every stage ran and passed', schema: ValidateResponse }, 404: notFound },
      async handle({ params, actor, requestId }) {
        const { response, position } = await validateInvoice({ ...withCodeLists(deps), validator: deps.validator }, {
          actor, requestId, companyId: (await scopeOf(actor, params.company_id)).companyId, invoiceId: params.invoice_id,
        });
        if (position) await deps.projections.caughtUp(position, deps.config.readYourWritesTimeoutMs, ['invoices']);
        return { status: 200, body: response };
      },
    }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/{invoice_id}/ubl', operationId: 'getInvoiceUbl', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'The invoice as UBL 2.1 (Peppol BIS Billing 3.0), as the service sends it',
      params: InvoiceParams,
      responses: { 200: { description: 'the UBL 2.1 Invoice or CreditNote document', schema: Type.String(), mediaType: 'application/xml' }, 404: notFound },
      async handle({ params, actor }) {
        const invoice = await loadInvoice(deps, await scopeOf(actor, params.company_id), params.invoice_id);
        return {
          status: 200,
          body: invoiceUbl(invoice),
          headers: { 'content-type': 'application/xml; charset=utf-8', 'content-disposition': `inline; filename="${invoice.state.invoice_number}.xml"` },
        };
      },
    }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/{invoice_id}/history', operationId: 'getInvoiceHistory', tags: ['invoices'], auth: 'api', permission: 'invoices.read',
      summary: 'For auditors: every event of the invoice (type, time, actor, data), or with as_of the invoice as it stood then',
      params: InvoiceParams,
      query: Type.Object({ as_of: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601 timestamp with zone' })) }),
      responses: {
        200: {
          description: 'without as_of: {invoice_id, events[]}; with as_of: {invoice_id, as_of, invoice}',
          schema: Type.Union([
            Type.Object({ invoice_id: Uuid, events: Type.Array(HistoryEntry) }),
            Type.Object({ invoice_id: Uuid, as_of: Type.String(), invoice: Invoice }),
          ]),
        },
        404: notFound,
      },
      async handle({ params, query, actor }) {
        const scope = await scopeOf(actor, params.company_id);
        if (query.as_of) {
          const asOf = new Date(query.as_of);
          if (Number.isNaN(asOf.getTime())) throw new DomainError('invalid_as_of', 'as_of must be an ISO 8601 timestamp');
          const loaded = await loadInvoice(deps, scope, params.invoice_id, asOf);
          return { status: 200, body: { invoice_id: params.invoice_id, as_of: asOf.toISOString(), invoice: invoiceAsOf(loaded) } };
        }
        const { events } = await loadInvoice(deps, scope, params.invoice_id);
        return {
          status: 200,
          body: {
            invoice_id: params.invoice_id,
            events: events.map((e) => ({
              version: e.revision, type: e.type, recorded_at: e.recordedAt.toISOString(),
              actor: (e.metadata.actor as { type: string; id: string } | undefined) ?? null, data: e.data,
            })),
          },
        };
      },
    }),
  ];
}
