/**
 * The payment a document's PAY by square code asks for (the Slovak Banking Association's QR
 * standard, which Slovak payers expect on an invoice): decided here, encoded by the `bysquare`
 * library where it is drawn or served (src/modules/invoice-pdf/pay-by-square.ts).
 *
 * - Amount: the document's amount due (BT-115), as its PDF prints it ("Na úhradu").
 * - Account: the supplier's IBAN, with the BIC of the company's account when it has one.
 * - Variable symbol: the document's when it is one (digits, at most 10); otherwise the invoice
 *   number's digits, as Slovak practice does (the last 10 of a longer run); none when the number
 *   has no digit.
 * - Due date: the document's, when it has one. Payee: the supplier's name and address.
 *
 * No code for a document that asks for no transfer: without an IBAN, or paid by card
 * (`pay_by_square_no_account`); with nothing to pay (a credit note, an amount due of zero or less,
 * a voided or cancelled invoice: `pay_by_square_nothing_due`). The PDF then says so in words.
 */
import { Dec } from '../invoices/money.ts';
import type { InvoiceContent, InvoiceTotals } from '../invoices/model.ts';

export interface PaymentRequest {
  /** decimal string, 2 places */
  amount: string;
  currency: string;
  iban: string;
  /** '' when the account's BIC is not known */
  bic: string;
  variable_symbol: string | null;
  /** YYYY-MM-DD, or null */
  due_date: string | null;
  payee: { name: string; street: string; city: string };
  note: string;
}

export type PaymentRequestRefusal = { code: 'pay_by_square_no_account' | 'pay_by_square_nothing_due'; message: string; words: string };

export type PaymentRequestDecision = { ok: true; payment: PaymentRequest } | ({ ok: false } & PaymentRequestRefusal);

/** What the decision reads of a document: its content, its totals and its status. */
export interface PayableDocument {
  status: string;
  content: InvoiceContent;
  totals: Pick<InvoiceTotals, 'amount_due'>;
}

const FINISHED = new Set(['voided', 'cancelled']);

/** The document's variable symbol, or the invoice number's digits (the last 10); null when there is none. */
export function variableSymbolOf(content: Pick<InvoiceContent, 'variable_symbol' | 'invoice_number'>): string | null {
  const own = content.variable_symbol?.trim() ?? '';
  if (/^\d{1,10}$/.test(own)) return own;
  const digits = content.invoice_number.replace(/\D/g, '');
  return digits ? digits.slice(-10) : null;
}

function refused(code: PaymentRequestRefusal['code'], message: string, words: string): PaymentRequestDecision {
  return { ok: false, code, message, words };
}

export function paymentRequest(document: PayableDocument): PaymentRequestDecision {
  const { content: c, totals } = document;
  if (c.invoice_type === '381') return refused('pay_by_square_nothing_due', 'a credit note asks for no payment', 'dobropis sa neuhrádza');
  if (FINISHED.has(document.status)) return refused('pay_by_square_nothing_due', `the invoice is ${document.status}: nothing is to be paid`, 'doklad je stornovaný, nič sa neuhrádza');
  if (!new Dec(totals.amount_due).greaterThan(0)) return refused('pay_by_square_nothing_due', 'the amount due is zero or less', 'nie je čo uhradiť');
  if (c.payment_means_code === '48') return refused('pay_by_square_no_account', 'the invoice is paid by card, not by a transfer', 'úhrada kartou');
  const iban = c.supplier_iban?.replace(/\s+/g, '').toUpperCase() ?? '';
  if (!iban) return refused('pay_by_square_no_account', 'the invoice names no IBAN (supplier_iban) to pay to', 'doklad neuvádza IBAN dodávateľa');
  return {
    ok: true,
    payment: {
      amount: new Dec(totals.amount_due).toFixed(2),
      currency: c.currency_code,
      iban,
      bic: c.seller_details?.bic ?? '',
      variable_symbol: variableSymbolOf(c),
      due_date: c.due_date,
      payee: { name: c.supplier.name, street: c.supplier.street, city: [c.supplier.postal_code, c.supplier.city].filter(Boolean).join(' ') },
      note: `Faktúra ${c.invoice_number}`,
    },
  };
}
