import { Type } from '@sinclair/typebox';
import { creditNoteRequestOf } from '../../../commands/credit-notes/request.ts';
import { INVOICE_APPROVALS } from '../../../projections/approvals/queries.ts';
import type { InvoiceStreamEvent } from '../../../commands/invoices/state.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import { effectiveRole } from '../../../commands/identity/permissions.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { AllowanceCache } from '../../../projections/credit-note-allowance/cache.ts';
import { CREDIT_NOTE_ALLOWANCE, allowanceDegraded } from '../../../projections/credit-note-allowance/queries.ts';
import { INVOICE_REGISTER, getInvoice, getInvoiceWithCreditedFacts } from '../../../projections/invoices/queries.ts';
import { hasReviewer } from '../../../projections/tenancy/queries.ts';
import { ErrorBody, Uuid } from '../../../schemas/common/index.ts';
import { CreditNoteAllowance, CreditNoteBody } from '../../../schemas/credit-notes.ts';
import { Invoice } from '../../../schemas/invoices.ts';
import { createCreditNote, openVoidDraft } from './credit-notes.ts';
import { loadInvoice } from '../invoices/index.ts';
import { settledFrom } from '../payments/index.ts';
import { invoiceVisibleTo, withCodeLists, type InvoicingDeps } from '../invoices/index.ts';
import { companyOf } from '../invoices/index.ts';
import type { UsageCounts } from '../usage/index.ts';
import type { RecordedEvent } from '../../platform/eventstore/port.ts';
import { domainEvent } from '../../platform/handling/read-and-fold.ts';
import { readCurrent } from '../../platform/readmodel/current-read.ts';
import { readModelDegraded } from '../../platform/readmodel/failures.ts';
import { CREATE_DESCRIPTION, VOID_DESCRIPTION } from './route-docs.ts';
import { idempotent, type Recover } from '../idempotency/index.ts';
import { invoiceBody, invoiceRowOf } from '../invoices/index.ts';
import { API_PREFIX } from '../../doors/native/prefix.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { ETAG_HEADER, LOCATION_HEADER, ifMatchHeader } from '../../platform/http/index.ts';

export type CreditNoteRouteDeps = InvoicingDeps & { usage: UsageCounts };

const InvoiceParams = Type.Object({ company_id: Uuid, invoice_id: Uuid });

/** The credit note as its reads show it, with where it lives and the credited invoice's new version. */
function creditNoteAnswer(status: number, creditNote: Invoice, companyId: string, invoiceVersion: number) {
  return {
    status, body: creditNote,
    headers: {
      etag: `"${creditNote.version}"`, location: `${API_PREFIX}/companies/${companyId}/invoices/${creditNote.id}`, 'x-invoice-version': String(invoiceVersion),
    },
  };
}

const CREATED_HEADERS = [ETAG_HEADER, LOCATION_HEADER, { name: 'X-Invoice-Version', description: 'the credited invoice\'s new version, for its next If-Match', schema: Type.String() }];

export function creditNoteRoutes(deps: CreditNoteRouteDeps): Route[] {
  const { projections, config, readModels } = deps;
  const allowances = new AllowanceCache();
  // the register's row, or, when the register is still behind the write (a busy moment past the
  // read-your-writes wait), the credit note from its own stream: the answer never fails for a lag
  // (the row and its credited invoice's settlement facts are one statement)
  const registered = async (scope: { organisationId: string; companyId: string }, id: string) => {
    const found = await getInvoiceWithCreditedFacts(readModels, scope, id);
    if (found?.creditedInvoiceId) return invoiceBody(found.row, settledFrom(found.row, found.facts));
    const row = found?.row ?? invoiceRowOf(await loadInvoice(deps, scope, id));
    return invoiceBody(row, await deps.settlement(row));
  };
  /**
   * A request resumed under its Idempotency-Key whose first run wrote its credit note (named by
   * the first id it minted) and died before answering: that credit note, answered as then.
   */
  const recover: Recover = async ({ actor, params, resourceId }) => {
    const events = await deps.store.readStream(invoiceStream(resourceId));
    const first = events[0];
    const created = first && domainEvent<InvoiceStreamEvent>(first);
    if (created?.type !== 'CreditNoteCreated' || created.data.organisation_id !== actor.organisationId) return null;
    if (created.data.credited_invoice.invoice_id !== params.invoice_id) return null;
    const last = events[events.length - 1] as RecordedEvent;
    await projections.caughtUp(last.position, config.readYourWritesTimeoutMs, [INVOICE_REGISTER, CREDIT_NOTE_ALLOWANCE]);
    const scope = { organisationId: actor.organisationId, companyId: created.data.company_id };
    const queued = events.some((e) => e.type === 'InvoiceQueued');
    const invoice = await getInvoice(readModels, scope, params.invoice_id ?? '');
    return creditNoteAnswer(queued ? 202 : 201, await registered(scope, resourceId), created.data.company_id, invoice?.version ?? -1);
  };
  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/{invoice_id}/credit-notes', operationId: 'createCreditNote', tags: ['credit notes'],
      auth: 'api', permission: 'invoices.write',
      summary: 'Credit an issued invoice: full reversal, partial credit, price correction or returned goods',
      description: CREATE_DESCRIPTION,
      params: InvoiceParams, body: CreditNoteBody,
      headerDocs: [ifMatchHeader('required: the invoice version read (its `version` or ETag); 428 without it, 412 when stale, both after 404 and a 409 `not_creditable` of the invoice itself', true)],
      responses: {
        201: { description: '`delivered` (handed to the buyer by hand: PDF) or `pending_approval` (waits for an approver); header X-Invoice-Version: the credited invoice\'s new version', schema: Invoice, headers: CREATED_HEADERS },
        202: { description: '`queued` for Peppol delivery and the FS copy; header X-Invoice-Version: the credited invoice\'s new version', schema: Invoice, headers: CREATED_HEADERS },
        402: { description: '`usage_limit_exceeded`: a credit note is a document sent, counted like an invoice', schema: ErrorBody },
        404: { description: '`company_not_found` / `invoice_not_found` (also another organisation\'s or company\'s)', schema: ErrorBody },
        409: { description: '`not_creditable`: a received invoice, a proforma, a credit note, an invoice not issued yet, voided or fully credited; or a full_reversal while another credit note is queued', schema: ErrorBody },
        412: { description: '`version_mismatch`: the invoice changed since the version in If-Match (reload it)', schema: ErrorBody },
        422: { description: 'request-body errors (flavour 1); `credit_limit_exceeded` {error, message, details[]} (flavour 3); or the document\'s rules (flavour 2). Nothing is created.' },
        428: { description: '`if_match_required`', schema: ErrorBody },
      },
      async handle({ params, body, actor, requestId, ifMatch }) {
        const company = await companyOf(deps, actor, params.company_id);
        const created = await createCreditNote({ ...withCodeLists(deps), usage: deps.usage }, {
          actor, requestId, company, invoiceId: params.invoice_id, expectedVersion: ifMatch, body: creditNoteRequestOf(body),
          // only an accountant's credit note may wait for a reviewer: nobody else's needs the question asked
          organisationHasReviewer: effectiveRole(actor) === 'accountant' && (await hasReviewer(readModels, actor.organisationId)),
        });
        // a credit note waiting for a reviewer: its approval record is read right after, too
        const shown = created.rail === 'pending_approval' ? [INVOICE_REGISTER, CREDIT_NOTE_ALLOWANCE, INVOICE_APPROVALS] : [INVOICE_REGISTER, CREDIT_NOTE_ALLOWANCE];
        await projections.caughtUp(created.position, config.readYourWritesTimeoutMs, shown);
        const scope = { organisationId: actor.organisationId, companyId: company.id };
        return creditNoteAnswer(created.rail === 'peppol' ? 202 : 201, await registered(scope, created.credit_note_id), company.id, created.invoice_version);
      },
    }), { recover }),
    idempotent(deps, defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/{invoice_id}/void', operationId: 'voidInvoice', tags: ['credit notes'],
      auth: 'api', permission: 'invoices.write',
      summary: 'Make a full-reversal credit note as a draft, for the caller to send',
      description: VOID_DESCRIPTION,
      params: InvoiceParams,
      headerDocs: [ifMatchHeader('optional: the invoice version read (412 when stale); without it the void is decided on the invoice as it is')],
      responses: {
        200: { description: 'a void draft of this invoice was waiting already: that draft, unchanged', schema: Invoice, headers: CREATED_HEADERS },
        201: { description: 'the draft credit note (status `draft`, reason full_reversal); header X-Invoice-Version: the invoice\'s new version', schema: Invoice, headers: CREATED_HEADERS },
        404: { description: '`company_not_found` / `invoice_not_found`', schema: ErrorBody },
        409: { description: '`not_creditable` (see the credit-note route)', schema: ErrorBody },
        412: { description: '`version_mismatch`', schema: ErrorBody },
      },
      async handle({ params, actor, requestId, ifMatch }) {
        const company = await companyOf(deps, actor, params.company_id);
        const scope = { organisationId: actor.organisationId, companyId: company.id };
        const open = await openVoidDraft(deps, scope, params.invoice_id);
        let answer: { status: number; id: string; invoiceVersion: number };
        if (open.draft && (ifMatch === undefined || ifMatch === open.revision)) {
          answer = { status: 200, id: open.draft.credit_note_id, invoiceVersion: open.revision };
        } else {
          const created = await createCreditNote({ ...withCodeLists(deps), usage: deps.usage }, {
            actor, requestId, company, invoiceId: params.invoice_id, expectedVersion: ifMatch, body: { reason: 'full_reversal', note: null },
            organisationHasReviewer: false, voidDraft: true,
          });
          await projections.caughtUp(created.position, config.readYourWritesTimeoutMs, [INVOICE_REGISTER, CREDIT_NOTE_ALLOWANCE]);
          answer = { status: 201, id: created.credit_note_id, invoiceVersion: created.invoice_version };
        }
        return creditNoteAnswer(answer.status, await registered(scope, answer.id), company.id, answer.invoiceVersion);
      },
    }), { recover }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/{invoice_id}/credit-notes/allowance', operationId: 'getCreditNoteAllowance', tags: ['credit notes'],
      auth: 'api', permission: 'invoices.read',
      summary: 'What the invoice has left to credit, per VAT bucket and per line',
      description: [
        'Counted as credited: credit notes that are queued or issued; drafts, pending approval, failed and rejected ones are not.',
        'A line\'s left_net/left_vat shrink only through returned_goods credit notes naming it; partial_credit and price_correction reduce only the bucket.',
        '`creditable` answers for every reason at once; a full_reversal is also refused (409) while another credit note of the invoice is queued, which this does not show.',
        'Not creditable: a received invoice, a proforma, a credit note, an invoice not issued yet (draft, validated, approved, pending approval; correct it instead),',
        'a failed one that never reached anyone, and a voided one.',
      ].join(' '),
      params: Type.Object({ company_id: Uuid, invoice_id: Uuid }),
      responses: {
        200: { description: 'the allowance', schema: CreditNoteAllowance, headers: [ETAG_HEADER] },
        404: { description: '`company_not_found` / `invoice_not_found` (also another organisation\'s or company\'s)', schema: ErrorBody },
        503: { description: '`read_model_degraded`: an event of this invoice could not be projected (operators: `projections status`); `read_model_behind`: the invoice is stored at a newer version (`version`) than the read models showed within the read-your-writes bound; read again after `retry_after` seconds', schema: ErrorBody },
      },
      async handle({ params, actor }) {
        await companyOf(deps, actor, params.company_id);
        const scope = { organisationId: actor.organisationId, companyId: params.company_id };
        // the invoice's last event shown by both read models, whichever instance wrote it (readCurrent)
        const [found, degraded] = await readCurrent(deps, {
          stream: invoiceStream(params.invoice_id), projectors: [INVOICE_REGISTER, CREDIT_NOTE_ALLOWANCE], resource: 'credit-note allowance',
          read: () => Promise.all([allowances.get(deps.readModels, scope, params.invoice_id), allowanceDegraded(deps.readModels, actor.organisationId, params.invoice_id)]),
          visible: () => invoiceVisibleTo(deps, scope, params.invoice_id),
        });
        if (degraded) throw readModelDegraded('credit-note allowance');
        if (!found) throw new DomainError('invoice_not_found', 'invoice not found');
        return { status: 200, body: found.allowance, headers: { etag: `"${found.version}"` } };
      },
    }),
  ];
}
