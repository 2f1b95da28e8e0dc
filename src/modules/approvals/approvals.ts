import type { ApprovalRecord } from '../../../commands/approvals/approval.ts';
import { approvalDecider, type ApprovalCommand, type ApprovalState } from '../../../commands/approvals/decider.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import { handleCommand, ifMatchOr, type CommandOf } from '../../platform/handling/command-handler.ts';
import type { Core } from '../../platform/core.ts';
import { INVOICE_RETRIES } from '../invoices/index.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';
import { attributeRequester } from './attribution.ts';

export type ApprovalDeps = Pick<Core, 'store' | 'ids' | 'clock'>;

interface ApprovalRequest {
  actor: Actor;
  requestId: string;
  /** the company of the route: another company's invoice is not found (the decider's access rule) */
  companyId: string;
  invoiceId: string;
  /** If-Match, when the client sent one (412 when stale) */
  expectedVersion?: number;
}

export type ApprovalAction = { type: 'request' } | { type: 'approve' } | { type: 'reject'; reason: string };

interface ApprovalOutcome {
  approval: ApprovalRecord;
  /** the invoice stream's version after the action (the new ETag) */
  version: number;
  position: Position | null;
}

/**
 * request-approval, approve and reject: decided on the invoice's stream at the client's If-Match
 * version, or, without one, decided again on the newest state after a lost race (the invoice
 * stream has other writers: delivery legs, credit notes). A review names its reviewer (the
 * credential's kind and id) and who stands behind the pending request it reviews, attributed from
 * the event store on the state each attempt decides on: four eyes is the decider's rule.
 */
export async function decideApproval(deps: ApprovalDeps, request: ApprovalRequest, action: ApprovalAction): Promise<ApprovalOutcome> {
  const common = { invoice_id: request.invoiceId, scope: { organisationId: request.actor.organisationId, companyId: request.companyId }, at: deps.clock.now().toISOString() };
  const reviewer = { kind: request.actor.type, id: request.actor.id };
  // only a user's review gets as far as comparing persons (the decider refuses any other first)
  const review = async (state: ApprovalState) => ({
    ...common, reviewer,
    requester: reviewer.kind === 'user' && state.approval?.status === 'pending' ? await attributeRequester(deps.store, state.approval.requested_by) : null,
  });
  const command: CommandOf<ApprovalCommand, ApprovalState> = action.type === 'request'
    ? { type: 'RequestApproval', ...common, approval_id: deps.ids.next(), requested_by: request.actor.id }
    : async (state) => (action.type === 'approve' ? { type: 'ApproveInvoice', ...(await review(state)) } : { type: 'RejectInvoice', ...(await review(state)), reason: action.reason });
  const handled = await handleCommand(deps, invoiceStream(request.invoiceId), approvalDecider, command, {
    metadata: requestMetadata(request.actor, request.requestId), expected: ifMatchOr(request.expectedVersion, { retry: { onVersionConflict: INVOICE_RETRIES } }),
  });
  // every accepted action appends exactly one event, which leaves a record
  if (!handled.state.approval) throw new Error(`approval ${action.type} of ${request.invoiceId} left no record`);
  return { approval: handled.state.approval, version: handled.version, position: handled.position };
}
