import type { Decimal } from 'decimal.js';
import type { PaymentEvent, PaymentMethodPayload } from '../../events/payments.ts';
import { invoiceFor } from '../invoices/access.ts';
import { Dec, sum } from '../invoices/money.ts';
import type { InvoiceState } from '../invoices/state.ts';
import { NotFound, visibleTo, type RequestScope } from '../shared/access.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { checkFields } from '../shared/invalid-fields.ts';
import { paymentAmount } from './amount.ts';
import { checkPaymentsTotal, checkRefund } from './caps.ts';
import { paymentKind, type PaymentKind } from './payable.ts';
import type { InvoiceFacts } from './settlement.ts';

const REFERENCE_MAX_LENGTH = 140;
const REASON_MAX_LENGTH = 500;

export type PaymentCommand =
  | {
      type: 'RecordPayment';
      payment_id: string;
      /** the document paid (or refunded), as its own stream folds: read beside this stream */
      document: InvoiceState;
      /**
       * for a credit note made against an invoice: that invoice as its streams hold it (payable,
       * credit notes, the payments on it and the refunds on each credit note), read beside this
       * stream; null otherwise, or when the service does not hold that invoice
       */
      credited_invoice: InvoiceFacts | null;
      /** the caller's scope: a document it may not see is 404 invoice_not_found */
      scope: RequestScope;
      amount: string;
      currency_code: string;
      paid_on: string;
      method: PaymentMethodPayload;
      reference: string | null;
      recorded_by: string;
      at: string;
    }
  | { type: 'ReversePayment'; payment_id: string; scope: RequestScope; reason: string; reversed_by: string; at: string };

/** One payment or refund as its events leave it: what the routes answer. */
export interface Payment {
  payment_id: string;
  document_id: string;
  organisation_id: string;
  company_id: string;
  kind: PaymentKind;
  amount: string;
  currency_code: string;
  paid_on: string;
  method: PaymentMethodPayload;
  reference: string | null;
  recorded_by: string;
  recorded_at: string;
  status: 'recorded' | 'reversed';
  reversed_by: string | null;
  reversed_at: string | null;
  reversal_reason: string | null;
}

/** The payments of one document, oldest first. */
interface PaymentsState {
  payments: Payment[];
}

export const paymentNotFound = () => new NotFound('payment_not_found', 'payment not found');

const findPayment = (state: PaymentsState, paymentId: string) => state.payments.find((p) => p.payment_id === paymentId);

/** What the payments (or refunds) of one document that still count add up to: recorded, not reversed. */
export const recordedTotal = (payments: readonly Payment[], kind: PaymentKind): Decimal =>
  sum(payments.filter((p) => p.kind === kind && p.status === 'recorded').map((p) => new Dec(p.amount)));

/**
 * Payments and refunds of one document (stream payments-{document_id}). The document's own state
 * comes in with the command: what it is decides whether money may be recorded on it and what kind.
 * How much is capped (caps.ts) by what this stream already holds: a refund by what its credit note
 * has left to refund (with its invoice's side, read beside it), payments by the largest amount.
 */
export const paymentDecider: Decider<PaymentCommand, PaymentEvent, PaymentsState> = {
  initialState: { payments: [] },

  decide(command, state) {
    switch (command.type) {
      case 'RecordPayment': {
        const document = invoiceFor(command.document, command.scope);
        // the same payment again (a request resumed under its Idempotency-Key) records nothing more
        if (findPayment(state, command.payment_id)) return [];
        const amount = paymentAmount(command.amount);
        const { reference } = command;
        if (reference !== null) checkFields((problem) => {
          if (reference.trim() === '') problem('reference', 'reference must not be blank (omit it instead)', reference);
          if (reference.length > REFERENCE_MAX_LENGTH) problem('reference', `reference is at most ${REFERENCE_MAX_LENGTH} characters`, reference);
        });
        const kind = paymentKind(document);
        if (command.currency_code !== document.content.currency_code) {
          throw new DomainError('currency_mismatch', `the ${kind} is in ${command.currency_code}, the document in ${document.content.currency_code}`, {
            currency_code: command.currency_code, document_currency_code: document.content.currency_code,
          });
        }
        // decided on this stream as read: a lost race is decided again on the newer one
        if (kind === 'refund') checkRefund(document, recordedTotal(state.payments, 'refund'), command.credited_invoice, amount);
        else checkPaymentsTotal(recordedTotal(state.payments, 'payment'), amount);
        return [{
          type: 'PaymentRecorded',
          data: {
            payment_id: command.payment_id, document_id: document.invoice_id, organisation_id: document.organisation_id, company_id: document.company_id,
            kind, amount, currency_code: command.currency_code, paid_on: command.paid_on, method: command.method, reference: command.reference,
            recorded_by: command.recorded_by, recorded_at: command.at,
          },
        }];
      }
      case 'ReversePayment': {
        const payment = findPayment(state, command.payment_id);
        if (!payment || !visibleTo(payment, command.scope)) throw paymentNotFound();
        // reversing again changes nothing: the first reversal (and its reason) stands
        if (payment.status === 'reversed') return [];
        checkFields((problem) => {
          if (command.reason.trim() === '') problem('reason', 'reason must not be blank', command.reason);
          if (command.reason.length > REASON_MAX_LENGTH) problem('reason', `reason is at most ${REASON_MAX_LENGTH} characters`, command.reason);
        });
        return [{
          type: 'PaymentReversed',
          data: { payment_id: payment.payment_id, document_id: payment.document_id, reason: command.reason, reversed_by: command.reversed_by, reversed_at: command.at },
        }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PaymentRecorded':
        return { payments: [...state.payments, { ...event.data, status: 'recorded', reversed_by: null, reversed_at: null, reversal_reason: null }] };
      case 'PaymentReversed':
        return {
          payments: state.payments.map((p) => (p.payment_id === event.data.payment_id
            ? { ...p, status: 'reversed', reversed_by: event.data.reversed_by, reversed_at: event.data.reversed_at, reversal_reason: event.data.reason }
            : p)),
        };
    }
  },
};
