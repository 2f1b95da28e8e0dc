/**
 * A credit note's document: the invoice model (content and totals) of the credit note that credits
 * `rows` of `invoice`, which buildUbl writes as a UBL CreditNote (381) with a BillingReference to the
 * invoice. Pure: the invoice, the rows and the header in; nothing read from the world.
 *
 * Content (the texts in document-texts.ts, the lines in document-lines.ts):
 * - invoice_type 381, the credit note's number and issue date; supplier, buyer, customer, currency,
 *   payment means, IBAN, variable symbol (so a refund pairs with the invoice's payment), buyer and
 *   order reference from the invoice; billing_reference = the invoice's number and issue date.
 * - due_date none: a credit note is a refund (BR-CO-25 holds for invoices only), paid when it is
 *   recorded (rule 12).
 * - delivery_date: the supply the invoice billed (its delivery date, else its issue date), since
 *   that is what the credit note corrects; left out when it is the credit note's own issue date.
 * - note: the reason's text and the invoice, then the request's note (rule 1).
 * - lines: one per row in the rows' order, numbered 1..n; `rounding` rows make no line.
 *
 * Totals: exactly the rows' sums (document-totals.ts).
 */
import type { InvoiceContent, InvoiceLine, InvoiceTotals } from '../invoices/model.ts';
import { invoiceLineId } from '../invoices/line-id.ts';
import type { KnownInvoice } from '../invoices/state.ts';
import { documentLine } from './document-lines.ts';
import { creditNoteNote } from './document-texts.ts';
import { documentTotals, type BucketedLine } from './document-totals.ts';
import type { CreditReason, CreditRow } from './model.ts';

export interface CreditNoteHeader {
  credit_note_number: string;
  /** YYYY-MM-DD */
  issue_date: string;
  reason: CreditReason;
  /** the request's note, appended to the reason's text (rule 1) */
  note?: string | null;
}

export interface CreditNoteDocument {
  content: InvoiceContent;
  totals: InvoiceTotals;
}

export function creditNoteDocument(invoice: KnownInvoice, rows: readonly CreditRow[], header: CreditNoteHeader): CreditNoteDocument {
  const source = invoice.content;
  const byId = new Map(source.lines.map((l) => [invoiceLineId(invoice.invoice_id, l.line_number), l]));
  const lines: InvoiceLine[] = [];
  const bucketed: BucketedLine[] = [];
  for (const row of rows) {
    if (row.kind === 'rounding') continue;
    const from = row.source_line_id === null ? null : (byId.get(row.source_line_id) ?? null);
    const { line, amounts } = documentLine(row, from, header.reason, lines.length + 1);
    lines.push(line);
    bucketed.push({ bucket: line, amounts });
  }
  // BR-16; the rows a request makes always have a line (a rounding row comes with the rows of its bucket)
  if (lines.length === 0) throw new RangeError('a credit note needs at least one row that is not a rounding row');

  const supplied = source.delivery_date ?? source.issue_date;
  const content: InvoiceContent = {
    invoice_number: header.credit_note_number,
    invoice_type: '381',
    issue_date: header.issue_date,
    due_date: null,
    delivery_date: supplied === header.issue_date ? null : supplied,
    currency_code: source.currency_code,
    supplier: source.supplier,
    buyer: source.buyer,
    customer_id: source.customer_id,
    supplier_iban: source.supplier_iban,
    payment_means_code: source.payment_means_code,
    variable_symbol: source.variable_symbol,
    note: creditNoteNote(header.reason, source, header.note),
    buyer_reference: source.buyer_reference ?? source.invoice_number,
    order_reference: source.order_reference,
    billing_reference: { invoice_number: source.invoice_number, issue_date: source.issue_date },
    lines,
  };
  return { content, totals: documentTotals(rows, bucketed, invoice.totals.vat_breakdown) };
}
