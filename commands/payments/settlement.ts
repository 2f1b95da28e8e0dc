/**
 * What is owed on an invoice once credit notes, payments and refunds are counted, and what each
 * of its credit notes still has to refund. Pure: the reads hand in sums (payments and refunds that
 * were reversed are left out of them) and the credit notes' states; amounts are decimal strings.
 *
 *   credited_amount = gross of its issued credit notes
 *   amount_due      = total_gross − credited_amount − paid + refunded
 *
 * amount_due is negative when the buyer paid more than it now owes: a refund is due. Overpayment
 * is accepted when recorded, so an invoice paid twice (or more than it asks) shows it here the
 * same way: amount_due is minus what was overpaid, payment_status `refund_due`.
 *
 * Every amount shown lies within ±999,999,999,999.99 (bounds.ts MAX_AMOUNT), whatever the stream
 * holds: sums are computed exactly and only what is shown is capped at the bound. The write side
 * keeps new payments and refunds within it (decider.ts), but a store may hold sums from before it
 * did (refunds beyond their credit note, payments adding up past a trillion), and a read must
 * still answer them.
 */
import type { Decimal } from 'decimal.js';
import type { CreditNoteEntry } from '../invoices/state.ts';
import { MAX_AMOUNT } from '../invoices/bounds.ts';
import { Dec, ZERO, formatMoney, sum } from '../invoices/money.ts';

export type PaymentStatus = 'unpaid' | 'partially_paid' | 'paid' | 'refund_due' | 'credited';

/** A credit note of the invoice: its gross, whether it is issued, and the refunds recorded on it. */
export interface CreditNoteFacts {
  credit_note_id: string;
  gross: string;
  /** issued: sent_peppol, delivered, sent_fs or fs_acknowledged (payable.ts ISSUED_STATUSES) */
  issued: boolean;
  /** refunds recorded on it, not reversed */
  refunded: string;
}

export interface InvoiceFacts {
  invoice_id: string;
  total_gross: string;
  /** payments recorded on the invoice, not reversed */
  paid: string;
  /** its credit notes, oldest first (the order refunds due are allotted in) */
  credit_notes: readonly CreditNoteFacts[];
}

interface InvoiceSettlement {
  credited_amount: string;
  paid: string;
  refunded: string;
  amount_due: string;
  payment_status: PaymentStatus;
}

/**
 * A credit note's side. refund_remaining: what is still to be paid back through it, at most its
 * gross less what was refunded on it, and in all at most the refund the invoice has due (allotted
 * to its credit notes oldest first). amount_due is that as the invoice reads it: negative when a
 * refund is due, so `−refund_remaining`. A credit note that is not issued has both at "0.00".
 */
export interface CreditNoteSettlement {
  credited_invoice_id: string | null;
  gross: string;
  refunded: string;
  refund_remaining: string;
  amount_due: string;
}

const dec = (s: string): Decimal => new Dec(s);
const max = (a: Decimal, b: Decimal): Decimal => (a.greaterThan(b) ? a : b);
const min = (a: Decimal, b: Decimal): Decimal => (a.lessThan(b) ? a : b);
/** An amount as a read shows it: two decimals, never "-0.00", capped at ±MAX_AMOUNT. */
const shown = (d: Decimal): string => formatMoney(max(MAX_AMOUNT.negated(), min(MAX_AMOUNT, d)));

/** The facts of an invoice's credit note from its entry on the invoice (the write side's state and the credit-note read model hold the same). */
export function creditNoteFacts(entry: CreditNoteEntry, refunded: string): CreditNoteFacts {
  return { credit_note_id: entry.credit_note_id, gross: creditNoteGross(entry), issued: entry.issued && !entry.released, refunded };
}

/** A credit note's gross: what its rows credit. */
export const creditNoteGross = (entry: CreditNoteEntry): string => formatMoney(sum(entry.rows.map((r) => dec(r.gross))));

/**
 * payment_status: `refund_due` when amount_due < 0; at 0, `credited` when issued credit notes
 * cover the whole invoice (nothing owed either way), else `paid`; above 0, `partially_paid` once
 * something was paid, else `unpaid`.
 */
function paymentStatus(totalGross: Decimal, credited: Decimal, paid: Decimal, due: Decimal): PaymentStatus {
  if (due.isNegative() && !due.isZero()) return 'refund_due';
  if (due.isZero()) return credited.isZero() || credited.lessThan(totalGross) ? 'paid' : 'credited';
  return paid.isZero() ? 'unpaid' : 'partially_paid';
}

/** The invoice's sums, exactly (nothing capped yet): due = total − credited − paid + refunded. */
function sumsOf(facts: InvoiceFacts) {
  const total = dec(facts.total_gross);
  const paid = dec(facts.paid);
  const credited = sum(facts.credit_notes.filter((c) => c.issued).map((c) => dec(c.gross)));
  const refunded = sum(facts.credit_notes.map((c) => dec(c.refunded)));
  return { total, paid, credited, refunded, due: total.minus(credited).minus(paid).plus(refunded) };
}

export function settleInvoice(facts: InvoiceFacts): InvoiceSettlement {
  const { total, paid, credited, refunded, due } = sumsOf(facts);
  // the status is read from the exact sums; only what is shown is capped
  return {
    credited_amount: shown(credited), paid: shown(paid), refunded: shown(refunded), amount_due: shown(due),
    payment_status: paymentStatus(total, credited, paid, due),
  };
}

/** A credit note's gross less its refunds once issued, never below zero: the most it can still refund. */
const openOn = (c: Omit<CreditNoteFacts, 'credit_note_id'>): Decimal => (c.issued ? max(ZERO, dec(c.gross).minus(dec(c.refunded))) : ZERO);

/**
 * What each credit note still has to refund, exactly, in the invoice's order: the refund the
 * invoice has due, allotted to its credit notes oldest first, never more than each one's open
 * amount. A refund within one credit note's share leaves every other one's share as it was, so
 * refunds on two credit notes of an invoice cannot together take more than it has due.
 */
function refundsRemaining(facts: InvoiceFacts): Map<string, Decimal> {
  let due = max(ZERO, sumsOf(facts).due.negated());
  const remaining = new Map<string, Decimal>();
  for (const c of facts.credit_notes) {
    const share = min(openOn(c), due);
    due = due.minus(share);
    remaining.set(c.credit_note_id, share);
  }
  return remaining;
}

/**
 * What the credit note `creditNoteId` of the invoice still has to refund (its `refund_remaining`),
 * exactly: the cap on a refund recorded on it. Zero for a credit note the facts do not list.
 */
export function refundRemaining(facts: InvoiceFacts, creditNoteId: string): Decimal {
  return refundsRemaining(facts).get(creditNoteId) ?? ZERO;
}

/** A credit note naming no invoice here: its gross less its refunds, once issued (settleStandaloneCreditNote). */
export const standaloneRefundRemaining = (c: Omit<CreditNoteFacts, 'credit_note_id'>): Decimal => openOn(c);

const creditNoteSettlement = (invoiceId: string | null, c: Omit<CreditNoteFacts, 'credit_note_id'>, remaining: Decimal): CreditNoteSettlement => ({
  credited_invoice_id: invoiceId, gross: shown(dec(c.gross)), refunded: shown(dec(c.refunded)), refund_remaining: shown(remaining), amount_due: shown(remaining.negated()),
});

/** Each credit note's settlement, by credit_note_id, in the invoice's order. */
export function settleCreditNotes(facts: InvoiceFacts): Map<string, CreditNoteSettlement> {
  const remaining = refundsRemaining(facts);
  return new Map(facts.credit_notes.map((c) => [c.credit_note_id, creditNoteSettlement(facts.invoice_id, c, remaining.get(c.credit_note_id) ?? ZERO)]));
}

/**
 * A credit note that names no invoice of this service (a 381 written as an invoice, or received):
 * nothing to set it against, so what is left to refund is its gross less its refunds, once issued.
 */
export function settleStandaloneCreditNote(c: Omit<CreditNoteFacts, 'credit_note_id'>): CreditNoteSettlement {
  return creditNoteSettlement(null, c, standaloneRefundRemaining(c));
}
