import { Type } from '@sinclair/typebox';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { allowanceDegraded, getAllowance } from '../../projections/credit-note-allowance/queries.ts';
import { ErrorBody, Uuid } from '../../schemas/common/index.ts';
import { CreditNoteAllowance } from '../../schemas/credit-notes.ts';
import { companyOf } from '../application/lookups.ts';
import { readModelDegraded } from '../readmodel/failures.ts';
import { defineRoute, type Route } from './route.ts';
import { creditNoteRequestOf } from '../../commands/credit-notes/request.ts';
import { INVOICE_REGISTER, getInvoice } from '../../projections/invoices/queries.ts';
import { hasReviewer } from '../../projections/tenancy/queries.ts';
import { CreditNoteBody } from '../../schemas/credit-notes.ts';
import { Invoice } from '../../schemas/invoices.ts';
import { createCreditNote, openVoidDraft } from '../application/credit-notes.ts';
import { withCodeLists, type InvoicingDeps } from '../application/invoices.ts';
import type { UsageCounts } from '../application/usage.ts';
import { idempotent } from './idempotency.ts';
import { invoiceBody } from './invoices.ts';
import { API_PREFIX } from './prefix.ts';

const CREATE_DESCRIPTION = [
  'Needs If-Match with the invoice version read (428 without it; 412 when the invoice changed since, e.g. another credit note was made: reload it).',
  'The credit note is a document of its own (type 381, numbered from the credit-note series `DOB-{year}-{seq}`) whose UBL names the invoice',
  '(BillingReference); `credited_invoice` on its reads names it too. It cannot be edited (PUT: 409 locked_credit_note).',
  '`full_reversal` copies the invoice row for row, or after earlier credit notes credits what each VAT bucket has left;',
  '`partial_credit` / `price_correction` credit VAT-inclusive amounts[] per VAT bucket (base = round-half-up(gross / (1 + rate/100), 2), vat = gross − base;',
  'a gross equal to the bucket\'s left_gross credits its left_base and left_vat as they stand); `returned_goods` credits lines[] at their own price and rate.',
  '`note` is appended to the credit note\'s note (PDF and UBL).',
  'Creditable: invoices issued here that have left the service (queued, sent_peppol, delivered, sent_fs, fs_acknowledged, rejected; failed only when',
  'the document reached someone); not drafts, validated, approved or pending_approval invoices (correct them instead), received invoices,',
  'proformas, credit notes, voided or fully credited invoices (409 not_creditable). A full_reversal is also refused while another credit note',
  'of the invoice is queued (it waits for nothing, so it cannot know what that one will take); queued partial, price and return credit notes',
  'never block one another. Answers: 202 `queued` (Peppol delivery and the FS copy, as a send); 201 `delivered` when the buyer has no',
  'electronic address or the invoice was finished by hand (hand the buyer the PDF); 201 `pending_approval` when an accountant asks in an',
  'organisation that has an admin or approver (nothing is delivered until approved and sent). Queued and issued credit notes count against what is',
  'left at once (GET …/credit-notes/allowance); a failed one gives its amount back, and an issued full_reversal voids the invoice.',
  'Idempotency-Key is supported.',
].join(' ');

const VOID_DESCRIPTION = [
  'Cancels an issued invoice the way Slovak law allows: a full-reversal credit note, made here as a draft (status `draft`, numbered',
  '`DOB-{year}-{seq}`, `credited_invoice` naming the invoice) that the caller reviews and sends itself (POST …/send, or …/mark-sent when',
  'the buyer gets it by hand; an accountant asks for approval first). The draft counts against nothing until it is sent: the allowance is',
  'unchanged. Its send credits what is left AT THAT TIME: if another credit note was issued meanwhile, the draft\'s rows and totals are',
  'made again from what is left then, and its issue date becomes the day it is sent; if nothing is left the send is refused (409',
  'not_creditable), and while another credit note of the invoice is queued too. Once issued it voids the invoice. The credit note cannot',
  'be edited (PUT: 409 locked_credit_note). If-Match is optional here (412 when stale); a second void while a draft waits answers 200 with',
  'that draft instead of making another. Same creditability rules as the credit-note route.',
].join(' ');

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

export function creditNoteRoutes(deps: CreditNoteRouteDeps): Route[] {
  const { projections, config, readModels } = deps;
  const registered = async (scope: { organisationId: string; companyId: string }, id: string) => {
    const row = await getInvoice(readModels, scope, id);
    if (!row) throw new Error(`credit note ${id} is not in the register after its write`);
    return invoiceBody(row, await deps.settlement(row));
  };
  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/{invoice_id}/credit-notes', operationId: 'createCreditNote', tags: ['credit notes'],
      auth: 'api', permission: 'invoices.write',
      summary: 'Credit an issued invoice: full reversal, partial credit, price correction or returned goods',
      description: CREATE_DESCRIPTION,
      params: InvoiceParams, body: CreditNoteBody,
      headerDocs: [{ name: 'If-Match', description: 'required: the invoice version read (its `version` or ETag); 428 without it, 412 when stale', schema: Type.String() }],
      responses: {
        201: { description: '`delivered` (handed to the buyer by hand: PDF) or `pending_approval` (waits for an approver); header X-Invoice-Version: the credited invoice\'s new version', schema: Invoice },
        202: { description: '`queued` for Peppol delivery and the FS copy; header X-Invoice-Version: the credited invoice\'s new version', schema: Invoice },
        402: { description: '`usage_limit_exceeded`: a credit note is a document sent, counted like an invoice', schema: ErrorBody },
        404: { description: '`company_not_found` / `invoice_not_found` (also another organisation\'s or company\'s)', schema: ErrorBody },
        409: { description: '`not_creditable`: a received invoice, a proforma, a credit note, an invoice not issued yet, voided or fully credited; or a full_reversal while another credit note is queued', schema: ErrorBody },
        412: { description: '`version_mismatch`: the invoice changed since the version in If-Match (reload it)', schema: ErrorBody },
        422: { description: 'request-body errors (flavour 1); `credit_limit_exceeded` {error, message, details[]} (flavour 3); or the document\'s rules (flavour 2). Nothing is created.' },
        428: { description: '`if_match_required`', schema: ErrorBody },
      },
      async handle({ params, body, actor, requestId, ifMatch }) {
        const company = await companyOf(deps, actor, params.company_id);
        if (ifMatch === undefined) throw new DomainError('if_match_required', 428, 'send If-Match with the invoice version you are crediting');
        const created = await createCreditNote({ ...withCodeLists(deps), usage: deps.usage }, {
          actor, requestId, company, invoiceId: params.invoice_id, expectedVersion: ifMatch, body: creditNoteRequestOf(body),
          organisationHasReviewer: await hasReviewer(readModels, actor.organisationId),
        });
        await projections.caughtUp(created.position, config.readYourWritesTimeoutMs, [INVOICE_REGISTER]);
        const scope = { organisationId: actor.organisationId, companyId: company.id };
        return creditNoteAnswer(created.rail === 'peppol' ? 202 : 201, await registered(scope, created.credit_note_id), company.id, created.invoice_version);
      },
    })),
    idempotent(deps, defineRoute({
      method: 'POST', path: '/companies/{company_id}/invoices/{invoice_id}/void', operationId: 'voidInvoice', tags: ['credit notes'],
      auth: 'api', permission: 'invoices.write',
      summary: 'Make a full-reversal credit note as a draft, for the caller to send',
      description: VOID_DESCRIPTION,
      params: InvoiceParams,
      headerDocs: [{ name: 'If-Match', description: 'optional: the invoice version read (412 when stale); without it the void is decided on the invoice as it is', schema: Type.String() }],
      responses: {
        200: { description: 'a void draft of this invoice was waiting already: that draft, unchanged', schema: Invoice },
        201: { description: 'the draft credit note (status `draft`, reason full_reversal); header X-Invoice-Version: the invoice\'s new version', schema: Invoice },
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
          await projections.caughtUp(created.position, config.readYourWritesTimeoutMs, [INVOICE_REGISTER]);
          answer = { status: 201, id: created.credit_note_id, invoiceVersion: created.invoice_version };
        }
        return creditNoteAnswer(answer.status, await registered(scope, answer.id), company.id, answer.invoiceVersion);
      },
    })),
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
        200: { description: 'the allowance', schema: CreditNoteAllowance },
        404: { description: '`company_not_found` / `invoice_not_found` (also another organisation\'s or company\'s)', schema: ErrorBody },
        503: { description: '`read_model_degraded`: an event of this invoice could not be projected (operators: `projections status`)', schema: ErrorBody },
      },
      async handle({ params, actor }) {
        await companyOf(deps, actor, params.company_id);
        const scope = { organisationId: actor.organisationId, companyId: params.company_id };
        const [found, degraded] = await Promise.all([getAllowance(deps.readModels, scope, params.invoice_id), allowanceDegraded(deps.readModels, actor.organisationId, params.invoice_id)]);
        if (degraded) throw readModelDegraded('credit-note allowance');
        if (!found) throw new DomainError('invoice_not_found', 404, 'invoice not found');
        return { status: 200, body: found.allowance, headers: { etag: `"${found.version}"` } };
      },
    }),
  ];
}
