/**
 * An approval covers the document as it was when approved. A change to it afterwards (a PUT:
 * content, amounts, buyer, …) voids the approval in the same write, and a pending request too
 * (none can be changed today: PUT waits until it is reviewed), so what a reviewer approved is
 * always what is sent. A document whose approval was voided is sent (or marked sent) only once a
 * new request is approved: it is refused with the spec's 409 invalid_status until then.
 */
import type { InvoiceApprovalVoided } from '../../events/approvals.ts';
import type { InvoiceContent, InvoiceTotals } from '../invoices/model.ts';
import type { KnownInvoice } from '../invoices/state.ts';
import { StandingRefusal } from '../shared/preconditions.ts';

/** A change to the document, as the command that makes it decided it. */
export interface DocumentChange {
  change: InvoiceApprovalVoided['data']['change'];
  content: InvoiceContent;
  totals: InvoiceTotals;
  by: string;
  at: string;
}

/** The content fields whose values differ, in the content's own order. */
function changedFields(before: InvoiceContent, after: InvoiceContent): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])] as (keyof InvoiceContent)[];
  return keys.filter((key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null));
}

/** The void a change brings to an approved (or pending) request: none when there is nothing to void. */
export function approvalVoidedBy(invoice: KnownInvoice, change: DocumentChange): InvoiceApprovalVoided[] {
  const approval = invoice.approval;
  if (approval?.status !== 'approved' && approval?.status !== 'pending') return [];
  return [{
    type: 'InvoiceApprovalVoided',
    data: {
      invoice_id: invoice.invoice_id, approval_id: approval.approval_id, change: change.change, changed_fields: changedFields(invoice.content, change.content),
      approved_total_gross: invoice.totals.total_gross, total_gross: change.totals.total_gross, voided_by: change.by, voided_at: change.at,
    },
  }];
}

/** Refuses sending a document whose approval a change voided, until a new request is approved. */
export function assertApprovalNotVoided(invoice: KnownInvoice, what: string): void {
  const approval = invoice.approval;
  if (!approval?.reapproval_required) return;
  throw new StandingRefusal('invalid_status', `${what} waits for a new approval: a change voided the approval, so ask for approval again and have it approved first`, {
    status: invoice.status, approval_id: approval.approval_id, approval_status: approval.status,
  });
}
