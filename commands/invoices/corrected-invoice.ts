/**
 * A corrected invoice (type 384) names the invoice it corrects (BG-3, UBL BillingReference), which
 * Peppol BIS 3.0.22 asks of Slovak ones (SK-R-001) and which a correction means nothing without: one
 * without is refused here, for every content the decider takes, as a request-body 422 at
 * `preceding_invoice` (the request's name for it). Whether the official rules of the release in
 * force accept type 384 at all is theirs to say when the UBL is validated (3.0.21's
 * PEPPOL-EN16931-P0112 allows it only between German parties; 3.0.22 allows it for Slovakia).
 */
import { InvalidFields, type FieldProblem } from '../shared/invalid-fields.ts';
import type { BillingReference, InvoiceContent, InvoiceTypeCode } from './model.ts';

/** What a request's `preceding_invoice` may name: one of the company's invoices by id, or one issued elsewhere. */
export type PrecedingInvoiceRequest = { id: string } | { number: string; issue_date: string };

/** The invoice an id named, as the company sees it (null: none of its invoices has that id). */
export interface PrecedingInvoiceFound {
  invoice_id: string;
  invoice_number: string;
  issue_date: string;
  invoice_type: InvoiceTypeCode;
  /** `api` issued here; `peppol` received */
  source: 'api' | 'peppol';
}

const problem = (loc: (string | number)[], msg: string, input: unknown): FieldProblem => ({ loc: ['body', ...loc], msg, type: 'value_error', input });

/** The BillingReference a request's preceding_invoice gives, or the 422 when an id names none of the company's invoices. */
export function precedingReference(requested: PrecedingInvoiceRequest | undefined | null, found: PrecedingInvoiceFound | null): BillingReference | null {
  if (!requested) return null;
  if (!('id' in requested)) return { invoice_number: requested.number.trim(), issue_date: requested.issue_date };
  const why = !found
    ? 'no invoice of this company has this id (for one issued elsewhere give number and issue_date)'
    : found.source !== 'api'
      ? 'a received invoice is corrected by its supplier, not here'
      : found.invoice_type === '381'
        ? 'a credit note is not an invoice to correct'
        : null;
  if (why) throw new InvalidFields([problem(['preceding_invoice', 'id'], why, requested.id)]);
  return { invoice_number: found!.invoice_number, issue_date: found!.issue_date, invoice_id: found!.invoice_id };
}

/** Refuses a corrected invoice (384) that names no preceding invoice. */
export function checkCorrectedInvoice(content: Pick<InvoiceContent, 'invoice_type' | 'billing_reference'>): void {
  if (content.invoice_type !== '384' || (content.billing_reference && content.billing_reference.invoice_number.trim() !== '')) return;
  throw new InvalidFields([
    problem(['preceding_invoice'], 'a corrected invoice (384) names the invoice it corrects: {"id": "<uuid>"} or {"number": "…", "issue_date": "YYYY-MM-DD"}', content.billing_reference),
  ]);
}
