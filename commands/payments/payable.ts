import type { InvoiceStatus } from '../../events/invoices.ts';
import type { KnownInvoice } from '../invoices/state.ts';
import { DomainError } from '../shared/domain-error.ts';

/** A payment on an invoice, or a refund on a credit note. */
export type PaymentKind = 'payment' | 'refund';

/** A document that has left the service and reached its receiver: what a credit note must be before it is refunded. */
export const ISSUED_STATUSES: readonly InvoiceStatus[] = ['sent_peppol', 'delivered', 'sent_fs', 'fs_acknowledged'];

/** Not issued yet: still being written or approved, nobody has it, so nobody owes it. */
const NOT_ISSUED_YET: readonly InvoiceStatus[] = ['draft', 'validated', 'approved', 'pending_approval'];

/** Ended for good: nothing is owed on it any more (a voided invoice's money goes back through its credit note). */
const ENDED: readonly InvoiceStatus[] = ['cancelled', 'voided'];

export const isIssued = (status: InvoiceStatus): boolean => ISSUED_STATUSES.includes(status);

const notPayable = (document: KnownInvoice, message: string) =>
  new DomainError('not_payable', message, { status: document.status, invoice_type: document.content.invoice_type });

/**
 * What money recorded on this document is, or 409 `not_payable`:
 * - a credit note (381) takes refunds, once it is issued (sent_peppol, delivered, sent_fs,
 *   fs_acknowledged); queued, pending approval, failed, rejected or draft ones are refused;
 * - a proforma (325) is never paid: the invoice issued for it is;
 * - an invoice (380) takes payments from queued on (queued, sent_peppol, delivered, sent_fs,
 *   fs_acknowledged), and also when failed or rejected: the money moved whatever happened to the
 *   electronic copy (the buyer had a PDF, FS refused only the tax copy). Not while it is not issued
 *   yet (draft, validated, approved, pending_approval), nor once cancelled or voided.
 * Received invoices (source peppol) are payable the same way: what we pay our suppliers.
 */
export function paymentKind(document: KnownInvoice): PaymentKind {
  const { status } = document;
  switch (document.content.invoice_type) {
    case '381':
      if (isIssued(status)) return 'refund';
      throw notPayable(document, `a refund is recorded on a credit note once it is issued (sent_peppol, delivered, sent_fs or fs_acknowledged); this one is ${status}`);
    case '325':
      throw notPayable(document, 'a proforma invoice is not paid: record the payment on the invoice issued for it');
    default:
      if (NOT_ISSUED_YET.includes(status)) throw notPayable(document, `the invoice is not issued yet (${status}): send it or mark it sent before recording a payment`);
      if (ENDED.includes(status)) throw notPayable(document, `the invoice is ${status}: nothing is owed on it; money to give back is a refund on its credit note`);
      return 'payment';
  }
}
