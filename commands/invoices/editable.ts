import type { InvoiceStatus } from '../../events/invoices.ts';
import { buyerHoldsNothing } from './delivery.ts';
import type { KnownInvoice } from './state.ts';

/**
 * PUT replaces the content while nothing has left the service: a draft, or a validated or approved
 * invoice, which becomes a draft again (an approval covers the content approved, so a changed one
 * needs approval again). Not while approval is pending: the reviewer would approve what they did
 * not see.
 */
const EDITABLE_STATUSES: readonly InvoiceStatus[] = ['draft', 'validated', 'approved'];

/**
 * Whether PUT may replace the content: a draft, validated or approved invoice; or a failed or
 * rejected one whose document nobody holds (the Peppol leg failed, or the receiving Access Point
 * rejected it, and FS holds no copy), so it can be corrected and sent again under the same number.
 */
export function isEditable(state: KnownInvoice): boolean {
  if (state.source !== 'api') return false;
  // a credit note reserved rows of this content (it was queued when credited): changing it would leave them crediting buckets and lines it no longer has
  if (state.credit_notes.some((c) => !c.released)) return false;
  if (EDITABLE_STATUSES.includes(state.status)) return true;
  const { peppol, fs } = state.delivery;
  return (state.status === 'failed' || state.status === 'rejected') && buyerHoldsNothing(peppol) && ['not_submitted', 'pending', 'failed'].includes(fs.status);
}
