import { Type } from '@sinclair/typebox';
import type { Payment as PaymentState } from '../../../commands/payments/decider.ts';
import { paymentNotFound } from '../../../commands/payments/decider.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { PAYMENTS, documentVisible, getPayment, listPayments } from '../../../projections/payments/queries.ts';
import { ErrorBody, Page, Uuid, ValidationErrorBody } from '../../../schemas/common/index.ts';
import { Payment, PaymentCreate, PaymentListQuery, PaymentReverse } from '../../../schemas/payments.ts';
import { companyOf, type Lookups } from '../invoices/index.ts';
import { recordPayment, reversePayment, type Recorded } from './payments.ts';
import type { Core } from '../../platform/core.ts';
import { idempotent } from '../idempotency/index.ts';
import { API_PREFIX } from '../../doors/native/prefix.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { listPage, pageRequest } from '../../doors/native/list-page.ts';
import { LOCATION_HEADER } from '../../platform/http/index.ts';

export type PaymentRouteDeps = Pick<Core, 'store' | 'ids' | 'clock' | 'readModels' | 'projections' | 'config'> & { lookups: Lookups };

function paymentBody(p: PaymentState): Payment {
  return {
    id: p.payment_id, document_id: p.document_id, company_id: p.company_id, kind: p.kind, amount: p.amount, currency_code: p.currency_code,
    paid_on: p.paid_on, method: p.method, reference: p.reference, status: p.status, recorded_by: p.recorded_by, recorded_at: p.recorded_at,
    reversed_by: p.reversed_by, reversed_at: p.reversed_at, reversal_reason: p.reversal_reason,
  };
}

const PaymentParams = Type.Object({ payment_id: Uuid });
const paymentNotFoundDoc = { description: '`payment_not_found` (also another organisation\'s)', schema: ErrorBody };
const fieldErrors = { description: 'request body errors (`detail` is a list of {loc, msg, type, input}): amount not positive or with more than 2 decimals, a blank reference or reason', schema: ValidationErrorBody };

const RULES = [
  'A payment is money on an invoice; a refund is money paid back on a credit note (the credit note\'s id as document_id). Which one it is follows from the document.',
  'An invoice is payable once it is issued: queued, sent_peppol, delivered, sent_fs or fs_acknowledged, and also failed or rejected (the money moved whatever happened',
  'to the electronic copy). Not payable (409 `not_payable`): an invoice not issued yet (draft, validated, approved, pending_approval), a cancelled or voided one, and a',
  'proforma (325). A credit note takes refunds only once it is issued (sent_peppol, delivered, sent_fs or fs_acknowledged); before that 409 `not_payable`.',
  'Received invoices (source peppol) are payable too: what the company pays its suppliers. The currency must be the document\'s (422 `currency_mismatch`).',
  'Overpayment is accepted and recorded as it happened: the invoice\'s amount_due then goes negative (minus what was overpaid) and its payment_status reads',
  '`refund_due`. The payments on one invoice add up to at most 999999999999.99 (else 422 on `amount`). A refund belongs to a credit note, so money paid back',
  'for an overpayment is recorded by reversing that payment and recording what was kept.',
  'A refund is at most what its credit note has left to refund, its settlement\'s refund_remaining: its gross less the refunds already on it, and no more than',
  'its invoice was paid beyond what it now owes (on an unpaid invoice the credit only lowers what the buyer owes: record the invoice\'s payment first). Beyond',
  'that, 422 `refund_exceeds_remaining` with loc ["body","amount"], the amount asked and refund_remaining. Refunds sent at once are decided one after the',
  'other, so together they never exceed it either.',
  'Payments never change the document or its version (they live beside it), so an If-Match taken before a payment stays good.',
  'The invoice read counts them: credited_amount = gross of its issued credit notes; amount_due = total_gross − credited_amount − paid + refunded (refunds on its credit',
  'notes); payment_status `unpaid`, `partially_paid`, `paid`, `refund_due` (amount_due < 0) or `credited` (its issued credit notes cover it all and nothing is owed either way).',
  'A credit note\'s settlement: {credited_invoice_id, gross, refunded, refund_remaining, amount_due}: refund_remaining is what is still to pay back through it (at most',
  'its gross less its refunds, and no more than the invoice has overpaid, allotted to its credit notes oldest first); amount_due = −refund_remaining. A credit note not',
  'issued yet has both at 0.00. Every amount these reads show lies within ±999999999999.99, also for payments recorded before these bounds held (shown at the bound).',
].join(' ');

const RECORD_REFUSALS = [
  fieldErrors.description,
  'payments on the invoice adding up past 999999999999.99 (on `amount`)',
  '`currency_mismatch` ({detail: {error, message, currency_code, document_currency_code}})',
  '`refund_exceeds_remaining`: a refund beyond what its credit note has left to refund ({detail: {error, message, loc: ["body","amount"], amount, refund_remaining, currency_code}})',
].join('; ');

/** Payments and refunds: record, read, reverse, and a document's list. */
export function paymentRoutes(deps: PaymentRouteDeps): Route[] {
  const { readModels, projections, config } = deps;

  /** read-your-writes: a GET right after this answer sees the payment, and the invoice's amount_due counts it */
  async function answered(recorded: Recorded, status: number) {
    if (recorded.position) await projections.caughtUp(recorded.position, config.readYourWritesTimeoutMs, [PAYMENTS]);
    const body = paymentBody(recorded.payment);
    return { status, body, headers: { location: `${API_PREFIX}/payments/${body.id}` } };
  }

  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/payments', operationId: 'recordPayment', tags: ['payments'], auth: 'api', permission: 'payments.write',
      summary: 'Record a payment on an invoice, or a refund on a credit note',
      description: `${RULES} The document must be of the caller's organisation (else 404 \`invoice_not_found\`).`,
      body: PaymentCreate,
      responses: {
        201: { description: 'the payment, `status: recorded`; Location names it', schema: Payment, headers: [LOCATION_HEADER] },
        404: { description: '`invoice_not_found`: no such document in the caller\'s organisation', schema: ErrorBody },
        409: { description: '`not_payable`: see above (detail.status and detail.invoice_type say why)', schema: ErrorBody },
        422: { description: RECORD_REFUSALS },
      },
      async handle({ body, actor, requestId }) {
        return answered(await recordPayment(deps, { actor, requestId, input: { ...body, reference: body.reference ?? null } }), 201);
      },
    }), {
      // the payment's id is the request's first minted id: a resumed request records the same payment, which the decider records once and answers with
      recover: async () => null,
    }),
    defineRoute({
      method: 'GET', path: '/payments/{payment_id}', operationId: 'getPayment', tags: ['payments'], auth: 'api', permission: 'payments.read',
      summary: 'Read one payment or refund', params: PaymentParams,
      responses: { 200: { description: 'the payment', schema: Payment }, 404: paymentNotFoundDoc },
      async handle({ params, actor }) {
        const payment = await getPayment(readModels, { organisationId: actor.organisationId, companyId: null }, params.payment_id);
        if (!payment) throw paymentNotFound();
        return { status: 200, body: paymentBody(payment) };
      },
    }),
    idempotent(deps, defineRoute({
      method: 'POST', path: '/payments/{payment_id}/reverse', operationId: 'reversePayment', tags: ['payments'], auth: 'api', permission: 'payments.write',
      summary: 'Reverse a payment or refund: it no longer counts, and stays listed as `reversed`',
      description: [
        'For a payment recorded by mistake or returned by the bank; the document\'s amount_due counts it no more. Whatever the document\'s status is now.',
        'Reversing an already reversed payment changes nothing and answers it as it is (the first reason stands). To correct an amount, reverse and record again.',
      ].join(' '),
      params: PaymentParams, body: PaymentReverse,
      responses: { 200: { description: 'the payment, `status: reversed`', schema: Payment }, 404: paymentNotFoundDoc, 422: fieldErrors },
      async handle({ params, body, actor, requestId }) {
        const reversed = await answered(await reversePayment(deps, { actor, requestId, paymentId: params.payment_id, reason: body.reason }), 200);
        return { status: reversed.status, body: reversed.body };
      },
    })),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/invoices/{invoice_id}/payments', operationId: 'listInvoicePayments', tags: ['payments'], auth: 'api',
      permission: 'payments.read',
      summary: 'The payments of an invoice, or the refunds of a credit note, newest first',
      description: 'Reversed ones are listed too (`status: reversed`). A document without payments gives an empty page.',
      params: Type.Object({ company_id: Uuid, invoice_id: Uuid }), query: PaymentListQuery,
      responses: {
        200: { description: 'one page', schema: Page(Payment) },
        404: { description: '`company_not_found` / `invoice_not_found` (also another organisation\'s, or another company\'s)', schema: ErrorBody },
      },
      async handle({ params, query, actor }) {
        await companyOf(deps, actor, params.company_id);
        const scope = { organisationId: actor.organisationId, companyId: params.company_id };
        if (!(await documentVisible(readModels, scope, params.invoice_id))) throw new DomainError('invoice_not_found', 'invoice not found');
        return { status: 200, body: listPage(await listPayments(readModels, params.invoice_id, pageRequest(query)), query, paymentBody) };
      },
    }),
  ];
}
