import { invoiceApprovals } from '../../../projections/approvals/projector.ts';
import { approvalRoutes, type ApprovalRouteDeps } from './routes.ts';
import type { Module } from '../module.ts';

/** Approvals: an invoice asks for approval and waits (pending_approval) until another admin or approver approves or rejects it. */
export function approvalsModule(deps: ApprovalRouteDeps): Module {
  return { routes: approvalRoutes(deps), projectors: [invoiceApprovals], reactors: [] };
}
