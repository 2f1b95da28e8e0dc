/**
 * How a new credit note leaves the service (rule 7), decided from who asks and how its invoice
 * reached the buyer:
 * - `pending_approval`: an accountant asks, and the organisation has someone who reviews (an admin
 *   or approver user; users belong to the organisation, so they review for all its companies). It
 *   waits, counts against nothing, and is delivered only once approved and sent (201).
 * - `by_hand`: the buyer has no electronic address, or the invoice itself was finished by hand
 *   (mark-sent): the credit note is delivered at once (201 `delivered`) and the caller hands the
 *   buyer the PDF, as with the invoice.
 * - `peppol`: queued for Peppol delivery and the FS copy, as a send (202).
 * - `void_draft` (POST …/void only): a full reversal left as a draft that the caller sends; like
 *   one up for approval it counts only once sent.
 */
import type { Role } from '../shared/actor.ts';
import type { KnownInvoice } from '../invoices/state.ts';

export type CreditNoteRail = 'peppol' | 'by_hand' | 'pending_approval' | 'void_draft';

export function creditNoteRail(invoice: KnownInvoice, asker: { role: Role; organisationHasReviewer: boolean }): CreditNoteRail {
  if (asker.role === 'accountant' && asker.organisationHasReviewer) return 'pending_approval';
  const byHand = invoice.delivery.peppol.status === 'manual' || !invoice.content.buyer.peppol_id || !invoice.content.supplier.peppol_id;
  return byHand ? 'by_hand' : 'peppol';
}
