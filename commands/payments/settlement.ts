/**
 * What is owed on an invoice once credit notes, payments and refunds are counted, and what each
 * of its credit notes still has to refund. Pure: the reads hand in sums (payments and refunds that
 * were reversed are left out of them) and the credit notes' states; amounts are decimal strings.
 *
 *   credited_amount = gross of its issued credit notes
 *   amount_due      = total_gross − credited_amount − paid + refunded
 *
 * amount_due is negative when the buyer paid more than it now owes: a refund is due. Overpayment
 * is accepted when recorded, so an invoice paid twice shows it here the same way.
 */
import type { Decimal } from 'decimal.js';
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
/** never "-0.00" */
const negated = (d: Decimal): string => formatMoney(d.negated());

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

export function settleInvoice(facts: InvoiceFacts): InvoiceSettlement {
  const total = dec(facts.total_gross);
  const paid = dec(facts.paid);
  const credited = sum(facts.credit_notes.filter((c) => c.issued).map((c) => dec(c.gross)));
  const refunded = sum(facts.credit_notes.map((c) => dec(c.refunded)));
  const due = total.minus(credited).minus(paid).plus(refunded);
  return {
    credited_amount: formatMoney(credited), paid: formatMoney(paid), refunded: formatMoney(refunded), amount_due: formatMoney(due),
    payment_status: paymentStatus(total, credited, paid, due),
  };
}

/** Each credit note's settlement, by credit_note_id, in the invoice's order. */
export function settleCreditNotes(facts: InvoiceFacts): Map<string, CreditNoteSettlement> {
  const owed = dec(settleInvoice(facts).amount_due);
  let due = max(ZERO, owed.negated());
  const settled = new Map<string, CreditNoteSettlement>();
  for (const c of facts.credit_notes) {
    const open = c.issued ? max(ZERO, dec(c.gross).minus(dec(c.refunded))) : ZERO;
    const remaining = min(open, due);
    due = due.minus(remaining);
    settled.set(c.credit_note_id, {
      credited_invoice_id: facts.invoice_id, gross: formatMoney(dec(c.gross)), refunded: formatMoney(dec(c.refunded)),
      refund_remaining: formatMoney(remaining), amount_due: negated(remaining),
    });
  }
  return settled;
}

/**
 * A credit note that names no invoice of this service (a 381 written as an invoice, or received):
 * nothing to set it against, so what is left to refund is its gross less its refunds, once issued.
 */
export function settleStandaloneCreditNote(c: Omit<CreditNoteFacts, 'credit_note_id'>): CreditNoteSettlement {
  const remaining = c.issued ? max(ZERO, dec(c.gross).minus(dec(c.refunded))) : ZERO;
  return { credited_invoice_id: null, gross: formatMoney(dec(c.gross)), refunded: formatMoney(dec(c.refunded)), refund_remaining: formatMoney(remaining), amount_due: negated(remaining) };
}
