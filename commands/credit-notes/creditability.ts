/**
 * Whether an invoice may be credited at all, whatever the reason (the allowance's `creditable` and
 * `refusal`, and the 409 `not_creditable` of the credit-note route).
 *
 * The spec names received invoices, proformas and quotations as not creditable, and leaves open
 * which statuses are "issued". Ours:
 * - A received invoice (source `peppol`) is credited by its supplier, not here.
 * - A proforma (325) asks for payment but is no tax document; a credit note (381) is corrected by
 *   another invoice, not credited again. Quotations have no invoice type code in this service (the
 *   spec's 1001 list is 380, 381, 325), so none can reach here.
 * - Issued means the document has left the service and can no longer be corrected by editing: any
 *   status from `queued` on (queued, sent_peppol, delivered, sent_fs, fs_acknowledged, rejected),
 *   and `failed` unless nothing reached anyone (then it is edited and sent again instead).
 *   draft, validated, approved and pending_approval are not issued yet; voided and cancelled
 *   invoices are gone.
 */
import type { InvoiceStatus } from '../../events/invoices.ts';
import type { KnownInvoice } from '../invoices/decider.ts';
import { isEditable } from '../invoices/editable.ts';
import type { DomainError } from '../shared/domain-error.ts';
import { StandingRefusal } from '../shared/preconditions.ts';

const NOT_ISSUED: readonly InvoiceStatus[] = ['draft', 'validated', 'approved', 'pending_approval'];
const GONE: readonly InvoiceStatus[] = ['voided', 'cancelled'];

/** Why the invoice cannot be credited, or null when it can (what is left aside). */
export function invoiceRefusal(invoice: KnownInvoice): string | null {
  if (invoice.source !== 'api') return 'a received invoice is credited by its supplier';
  if (invoice.content.invoice_type === '325') return 'a proforma invoice is not a tax document and cannot be credited';
  if (invoice.content.invoice_type === '381') return 'a credit note cannot be credited';
  if (NOT_ISSUED.includes(invoice.status)) return `the invoice is not issued yet (status ${invoice.status}): correct it instead`;
  if (GONE.includes(invoice.status)) return `the invoice is ${invoice.status}`;
  if (invoice.status === 'failed' && isEditable(invoice)) return 'the invoice never reached anyone (status failed): correct it and send it again';
  if (invoice.status === 'rejected' && isEditable(invoice)) return 'the receiving Access Point rejected the invoice (status rejected): correct it and send it again';
  return null;
}

/** Refusal when nothing is left to credit: every bucket's left_gross is 0.00 or below. */
export const NOTHING_LEFT = 'the invoice is fully credited: nothing is left to credit';

/** The invoice itself cannot be credited: whatever is asked and whatever version the client read (preconditions.ts). */
export function notCreditable(refusal: string): DomainError {
  return new StandingRefusal('not_creditable', refusal);
}
