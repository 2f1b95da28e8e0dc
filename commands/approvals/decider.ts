/**
 * Approvals on the invoice's stream (a credit note's stream is an invoice stream too). An invoice
 * issued here asks for approval from draft or validated and then waits in pending_approval: not
 * editable, not sendable. A reviewer (the route lets only admins and approvers in; an API key acts
 * as admin) approves it, and it may be sent, or rejects it with a reason, and it is a draft again.
 * Four eyes: whoever asked (the same user, API key or OAuth client) may not review their own request.
 */
import type { ApprovalEvent } from '../../events/approvals.ts';
import { invoiceFor } from '../invoices/access.ts';
import { evolveInvoice, initialInvoiceState, type InvoiceState, type InvoiceStreamEvent, type KnownInvoice } from '../invoices/state.ts';
import type { RequestScope } from '../shared/access.ts';
import type { Decider } from '../shared/decider.ts';
import { StandingRefusal } from '../shared/preconditions.ts';
import { checkFields } from '../shared/invalid-fields.ts';
import { evolveApproval, isApprovalEvent, type ApprovalRecord } from './approval.ts';

export type ApprovalCommand =
  | { type: 'RequestApproval'; invoice_id: string; approval_id: string; scope: RequestScope; requested_by: string; at: string }
  | { type: 'ApproveInvoice'; invoice_id: string; scope: RequestScope; reviewed_by: string; at: string }
  | { type: 'RejectInvoice'; invoice_id: string; scope: RequestScope; reviewed_by: string; reason: string; at: string };

/** The invoice as its stream leaves it, and its latest approval request (null: never asked). */
export interface ApprovalState {
  invoice: InvoiceState;
  approval: ApprovalRecord | null;
}

/** Statuses approval may be asked from: nothing has left the service and nobody approved it yet. */
const REQUESTABLE_STATUSES = ['draft', 'validated'] as const;

/** The longest rejection reason kept. */
const MAX_REASON_LENGTH = 1000;

/** Refusals by the invoice's and the request's state, or by who asks: they stand whatever version the client read (preconditions.ts). */
const invalidStatus = (invoice: KnownInvoice, what: string) =>
  new StandingRefusal('invalid_status', `${what} is not possible in status ${invoice.status}${invoice.source === 'peppol' ? ' (a received invoice is read-only)' : ''}`, {
    status: invoice.status,
  });

/** The pending request a review acts on; any other status refuses. */
function pendingRequest(state: ApprovalState, invoice: KnownInvoice, what: string): ApprovalRecord {
  if (invoice.status !== 'pending_approval' || state.approval?.status !== 'pending') throw invalidStatus(invoice, what);
  return state.approval;
}

/** Four eyes: the requester never reviews their own request, whatever their role. */
function assertOtherReviewer(request: ApprovalRecord, reviewer: string): void {
  if (request.requested_by === reviewer) {
    throw new StandingRefusal('self_review_not_allowed', 'an approval request is reviewed by someone other than who asked for it', {
      approval_id: request.id, requested_by: request.requested_by,
    });
  }
}

function decide(command: ApprovalCommand, state: ApprovalState): ApprovalEvent[] {
  const invoice = invoiceFor(state.invoice, command.scope);
  switch (command.type) {
    case 'RequestApproval': {
      const requestable = (REQUESTABLE_STATUSES as readonly string[]).includes(invoice.status);
      if (invoice.source !== 'api' || !requestable) throw invalidStatus(invoice, 'asking for approval');
      return [{
        type: 'InvoiceApprovalRequested',
        data: { invoice_id: invoice.invoice_id, approval_id: command.approval_id, requested_by: command.requested_by, requested_at: command.at },
      }];
    }
    case 'ApproveInvoice': {
      const request = pendingRequest(state, invoice, 'approving');
      assertOtherReviewer(request, command.reviewed_by);
      return [{ type: 'InvoiceApproved', data: { invoice_id: invoice.invoice_id, approval_id: request.id, reviewed_by: command.reviewed_by, reviewed_at: command.at } }];
    }
    case 'RejectInvoice': {
      const reason = command.reason.trim();
      checkFields((problem) => {
        if (reason === '') problem('reason', 'a rejection says why', command.reason);
        else if (reason.length > MAX_REASON_LENGTH) problem('reason', `at most ${MAX_REASON_LENGTH} characters`, command.reason);
      });
      const request = pendingRequest(state, invoice, 'rejecting');
      assertOtherReviewer(request, command.reviewed_by);
      return [{
        type: 'InvoiceApprovalRejected',
        data: { invoice_id: invoice.invoice_id, approval_id: request.id, reviewed_by: command.reviewed_by, reason, reviewed_at: command.at },
      }];
    }
  }
}

function evolve(state: ApprovalState, event: InvoiceStreamEvent): ApprovalState {
  return { invoice: evolveInvoice(state.invoice, event), approval: isApprovalEvent(event) ? evolveApproval(state.approval, event) : state.approval };
}

export const approvalDecider: Decider<ApprovalCommand, InvoiceStreamEvent, ApprovalState> = {
  initialState: { invoice: initialInvoiceState, approval: null },
  decide,
  evolve,
};
