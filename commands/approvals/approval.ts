import { APPROVAL_EVENT_TYPES, type ApprovalEvent } from '../../events/approvals.ts';

/** The spec's approval status: what the request-approval, approve and reject routes produce. */
type ApprovalStatus = 'pending' | 'approved' | 'rejected';

/** The spec's approval record: the latest request of an invoice and its review. */
export interface ApprovalRecord {
  id: string;
  status: ApprovalStatus;
  /** API key id, user id or OAuth client_id of who asked */
  requested_by: string;
  requested_at: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
  /** why it was rejected; null otherwise */
  reason: string | null;
}

export const isApprovalEvent = (event: { type: string }): event is ApprovalEvent => (APPROVAL_EVENT_TYPES as readonly string[]).includes(event.type);

/**
 * The record after one approval event (the decider's state and the approvals read model both fold
 * with it). A new request replaces the record: the record is the latest request's, the history of
 * the earlier ones stays in the invoice's stream.
 */
export function evolveApproval(record: ApprovalRecord | null, event: ApprovalEvent): ApprovalRecord | null {
  switch (event.type) {
    case 'InvoiceApprovalRequested': {
      const { approval_id, requested_by, requested_at } = event.data;
      return { id: approval_id, status: 'pending', requested_by, requested_at, reviewed_by: null, reviewed_at: null, reason: null };
    }
    case 'InvoiceApproved':
      if (record?.id !== event.data.approval_id) return record;
      return { ...record, status: 'approved', reviewed_by: event.data.reviewed_by, reviewed_at: event.data.reviewed_at };
    case 'InvoiceApprovalRejected':
      if (record?.id !== event.data.approval_id) return record;
      return { ...record, status: 'rejected', reviewed_by: event.data.reviewed_by, reviewed_at: event.data.reviewed_at, reason: event.data.reason };
  }
}
