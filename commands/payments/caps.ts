import type { Decimal } from 'decimal.js';
import { MAX_AMOUNT } from '../invoices/bounds.ts';
import { Dec, ZERO, formatMoney } from '../invoices/money.ts';
import type { KnownInvoice } from '../invoices/state.ts';
import { DomainError } from '../shared/domain-error.ts';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { refundRemaining, standaloneRefundRemaining, type InvoiceFacts } from './settlement.ts';

/**
 * How much a credit note has left to refund before this refund, exactly as its settlement shows it
 * (`refund_remaining`). Its own refunds are those of the stream the refund is appended to, as read
 * (so two refunds racing on it are decided one after the other); its invoice's side (the payable,
 * its credit notes, the payments on it and the refunds on the others) comes read beside it. A
 * refund within one credit note's share leaves the others' shares as they were (settlement.ts),
 * so refunds racing on two credit notes of one invoice cannot together exceed what it has due.
 *
 * The credit note counts as issued here from its own status (the decider checked it): its entry
 * on the invoice learns it a moment later, from a reactor. One that names an invoice the service
 * does not hold (`invoice` null) has nothing left to refund.
 */
function leftToRefund(creditNote: KnownInvoice, refunded: Decimal, invoice: InvoiceFacts | null): Decimal {
  const refundedSoFar = formatMoney(refunded);
  if (!creditNote.credited_invoice) return standaloneRefundRemaining({ gross: creditNote.totals.total_gross, issued: true, refunded: refundedSoFar });
  if (!invoice) return ZERO;
  const credit_notes = invoice.credit_notes.map((c) => (c.credit_note_id === creditNote.invoice_id ? { ...c, issued: true, refunded: refundedSoFar } : c));
  return refundRemaining({ ...invoice, credit_notes }, creditNote.invoice_id);
}

/**
 * A refund is at most what its credit note has left to refund: its gross less the refunds already
 * on it, and no more than its invoice was paid beyond what it now owes (the credit only lowers
 * what an unpaid invoice asks). Beyond that, 422 `refund_exceeds_remaining` on `amount`, with the
 * amount left (a refund that was truly paid out beyond it means the invoice's payment is not
 * recorded yet: record it first).
 */
export function checkRefund(creditNote: KnownInvoice, refunded: Decimal, invoice: InvoiceFacts | null, amount: string): void {
  const left = leftToRefund(creditNote, refunded, invoice);
  if (!new Dec(amount).greaterThan(left)) return;
  const currency = creditNote.content.currency_code;
  const remaining = formatMoney(left);
  throw new DomainError(
    'refund_exceeds_remaining',
    `the refund of ${amount} ${currency} is more than credit note ${creditNote.invoice_number} has left to refund (${remaining} ${currency}): `
      + `a credit note refunds at most its gross less its refunds${creditNote.credited_invoice ? ', and no more than its invoice was paid beyond what it now owes' : ''}`,
    { loc: ['body', 'amount'], amount, refund_remaining: remaining, currency_code: currency },
  );
}

/**
 * The payments on one invoice add up to at most the largest amount an invoice carries: overpayment
 * is accepted, but not past what every read can show. Beyond it, 422 on `amount`.
 */
export function checkPaymentsTotal(paid: Decimal, amount: string): void {
  const total = paid.plus(new Dec(amount));
  if (!total.greaterThan(MAX_AMOUNT)) return;
  throw new InvalidFields([{
    loc: ['body', 'amount'], type: 'value_error', input: amount,
    msg: `the payments on this invoice would come to ${formatMoney(total)}, beyond the largest amount an invoice carries (${MAX_AMOUNT.toFixed(2)})`,
  }]);
}
