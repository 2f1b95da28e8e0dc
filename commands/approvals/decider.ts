/**
 * Approvals on the invoice's stream (a credit note's stream is an invoice stream too). An invoice
 * issued here asks for approval from draft or validated and then waits in pending_approval: not
 * editable, not sendable. A reviewer (the route lets only admins and approvers in) approves it, and
 * it may be sent, or rejects it with a reason, and it is a draft again. A change after that voids
 * the approval (void.ts).
 *
 * Four eyes means two people. A review is a person's: a signed-in user, never an API key or an
 * OAuth client, which act for the organisation. And never the person who asked: the user who
 * asked, or, when a key or OAuth client asked, the user who created it (the approvals service
 * attributes the request: `Requester`). A key a user created asks on that user's behalf, so that user may not
 * review its request; a key the service issued itself stands for no user, so any other may.
 */
import type { ApprovalEvent } from '../../events/approvals.ts';
import { invoiceFor } from '../invoices/access.ts';
import { evolveInvoice, initialInvoiceState, type InvoiceState, type InvoiceStreamEvent, type KnownInvoice } from '../invoices/state.ts';
import type { RequestScope } from '../shared/access.ts';
import type { Actor } from '../shared/actor.ts';
import type { Decider } from '../shared/decider.ts';
import { StandingRefusal } from '../shared/preconditions.ts';
import { checkFields } from '../shared/invalid-fields.ts';
import { evolveApproval, isApprovalEvent, type ApprovalRecord } from './approval.ts';

/** A credential's kind: a user signs in as a person; an API key or OAuth client acts for the organisation. */
type CredentialKind = Actor['type'];

/** Who reviews: the credential the request came with. */
export interface Reviewer {
  kind: CredentialKind;
  /** the user's id (or the key's id, the client_id) */
  id: string;
}

/** Who asked for the pending request, as the approvals service attributes its `requested_by` (read beside the stream). */
export interface Requester {
  kind: CredentialKind;
  /** the record's requested_by: the user's id, API key id or OAuth client_id */
  id: string;
  /**
   * the person behind it: the user who asked, or the user who created the key or client (through
   * the keys that created it); for a key the service issued itself, the component that issued it,
   * which is nobody who reviews
   */
  person: string;
}

/** A review: by whom, and who asked for the request it reviews (null when none is pending). */
interface Review { invoice_id: string; scope: RequestScope; reviewer: Reviewer; requester: Requester | null; at: string }

export type ApprovalCommand =
  | { type: 'RequestApproval'; invoice_id: string; approval_id: string; scope: RequestScope; requested_by: string; at: string }
  | ({ type: 'ApproveInvoice' } & Review)
  | ({ type: 'RejectInvoice'; reason: string } & Review);

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

const CREDENTIAL_NAMES: Record<CredentialKind, string> = { user: 'a user', api_key: 'an API key', oauth_client: 'an OAuth client', system: 'the service' };

/** Four eyes, first half: a review is a person's; a key or an OAuth client acts for the organisation, whatever its role. */
function assertPerson(reviewer: Reviewer): void {
  if (reviewer.kind === 'user') return;
  throw new StandingRefusal('reviewer_must_be_user', `an approval is reviewed by a signed-in user: ${CREDENTIAL_NAMES[reviewer.kind]} acts for the organisation, not as a person`, {
    credential: reviewer.kind,
  });
}

/** Four eyes, second half: the person who asked (themselves, or through a key or client they created) never reviews it. */
function assertOtherPerson(request: ApprovalRecord, requester: Requester | null, reviewer: Reviewer): void {
  // the service attributes the request it read; one of another request is a bug, not a refusal
  if (requester?.id !== request.requested_by) throw new Error(`approval ${request.id}: the requester given (${requester?.id ?? 'none'}) is not who asked (${request.requested_by})`);
  if (reviewer.id !== request.requested_by && reviewer.id !== requester.person) return;
  const through = requester.kind === 'user' ? '' : ` (through ${CREDENTIAL_NAMES[requester.kind]} they created, ${requester.id})`;
  throw new StandingRefusal('self_review_not_allowed', `an approval request is reviewed by a person other than who asked for it${through}`, {
    approval_id: request.id, requested_by: request.requested_by, requested_by_person: requester.person,
  });
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
      assertPerson(command.reviewer);
      const request = pendingRequest(state, invoice, 'approving');
      assertOtherPerson(request, command.requester, command.reviewer);
      return [{ type: 'InvoiceApproved', data: { invoice_id: invoice.invoice_id, approval_id: request.id, reviewed_by: command.reviewer.id, reviewed_at: command.at } }];
    }
    case 'RejectInvoice': {
      assertPerson(command.reviewer);
      const reason = command.reason.trim();
      checkFields((problem) => {
        if (reason === '') problem('reason', 'a rejection says why', command.reason);
        else if (reason.length > MAX_REASON_LENGTH) problem('reason', `at most ${MAX_REASON_LENGTH} characters`, command.reason);
      });
      const request = pendingRequest(state, invoice, 'rejecting');
      assertOtherPerson(request, command.requester, command.reviewer);
      return [{
        type: 'InvoiceApprovalRejected',
        data: { invoice_id: invoice.invoice_id, approval_id: request.id, reviewed_by: command.reviewer.id, reason, reviewed_at: command.at },
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
