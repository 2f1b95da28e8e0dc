import { APPROVAL_EVENT_TYPES, type ApprovalEvent, type InvoiceApprovalVoided } from '../../events/approvals.ts';

/** The spec's approval status (request-approval, approve, reject), and `voided`: a change after the request or the approval. */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'voided';

/** Why an approval was voided: which change, when, by whom. */
export type ApprovalVoid = Omit<InvoiceApprovalVoided['data'], 'invoice_id' | 'approval_id' | 'voided_by' | 'voided_at'> & { by: string; at: string };

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
  /** the change that voided it; null unless voided */
  voided: ApprovalVoid | null;
}

/**
 * The latest request as the document's own rules need it (the invoice state keeps it, so a PUT
 * and a send decide on it without the record): its id and status, and whether a change voided an
 * approval that no approval has replaced since.
 */
export interface ApprovalMark {
  approval_id: string;
  status: ApprovalStatus;
  /** a change voided an approval (or a pending request) and nothing was approved since: it is not sent until approved again */
  reapproval_required: boolean;
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
      return { id: approval_id, status: 'pending', requested_by, requested_at, reviewed_by: null, reviewed_at: null, reason: null, voided: null };
    }
    case 'InvoiceApproved':
      if (record?.id !== event.data.approval_id) return record;
      return { ...record, status: 'approved', reviewed_by: event.data.reviewed_by, reviewed_at: event.data.reviewed_at };
    case 'InvoiceApprovalRejected':
      if (record?.id !== event.data.approval_id) return record;
      return { ...record, status: 'rejected', reviewed_by: event.data.reviewed_by, reviewed_at: event.data.reviewed_at, reason: event.data.reason };
    case 'InvoiceApprovalVoided': {
      if (record?.id !== event.data.approval_id) return record;
      const { invoice_id: _invoice, approval_id: _approval, voided_by, voided_at, ...why } = event.data;
      return { ...record, status: 'voided', voided: { ...why, by: voided_by, at: voided_at } };
    }
  }
}

/** The mark after one approval event: see ApprovalMark. */
export function evolveApprovalMark(mark: ApprovalMark | null, event: ApprovalEvent): ApprovalMark | null {
  if (event.type === 'InvoiceApprovalRequested') {
    return { approval_id: event.data.approval_id, status: 'pending', reapproval_required: mark?.reapproval_required ?? false };
  }
  if (mark?.approval_id !== event.data.approval_id) return mark;
  switch (event.type) {
    case 'InvoiceApproved':
      return { ...mark, status: 'approved', reapproval_required: false };
    case 'InvoiceApprovalRejected':
      return { ...mark, status: 'rejected' };
    case 'InvoiceApprovalVoided':
      return { ...mark, status: 'voided', reapproval_required: true };
  }
}
