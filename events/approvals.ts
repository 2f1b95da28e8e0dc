import type { DomainEvent } from './event.ts';

/*
 * Approvals, as the invoice's own stream (invoice-{id}) records them: a request puts the invoice
 * (or a credit note, whose stream has the same shape) in pending_approval; an approval makes it
 * approved (sendable); a rejection makes it a draft again; a change to what was approved voids it.
 * `approval_id` names one request and its review. Actor ids are the API key id, user id or OAuth
 * client_id of who acted.
 */

/** Approval was asked for: the invoice waits in pending_approval and cannot be edited or sent. */
export type InvoiceApprovalRequested = DomainEvent<
  'InvoiceApprovalRequested',
  { invoice_id: string; approval_id: string; requested_by: string; requested_at: string }
>;

/** A reviewer other than the requester approved the request: the invoice is approved and may be sent. */
export type InvoiceApproved = DomainEvent<
  'InvoiceApproved',
  { invoice_id: string; approval_id: string; reviewed_by: string; reviewed_at: string }
>;

/** A reviewer other than the requester rejected the request, saying why: the invoice is a draft again. */
export type InvoiceApprovalRejected = DomainEvent<
  'InvoiceApprovalRejected',
  { invoice_id: string; approval_id: string; reviewed_by: string; reason: string; reviewed_at: string }
>;

/**
 * A change to the document voided its approval (approved, or still pending): what was approved is
 * not what would be sent, so it is sent only once a new request is approved. Written in the same
 * append as the change, right after it.
 */
export type InvoiceApprovalVoided = DomainEvent<
  'InvoiceApprovalVoided',
  {
    invoice_id: string;
    approval_id: string;
    /** the change that voided it: `invoice_updated` (PUT) */
    change: 'invoice_updated';
    /** the content fields that differ from what was approved (`buyer`, `lines`, `note`, …); empty when the same content was put again */
    changed_fields: string[];
    /** the total with VAT when it was approved, and after the change */
    approved_total_gross: string;
    total_gross: string;
    /** who made the change: user id, API key id or OAuth client_id */
    voided_by: string;
    voided_at: string;
  }
>;

export type ApprovalEvent = InvoiceApprovalRequested | InvoiceApproved | InvoiceApprovalRejected | InvoiceApprovalVoided;

export const APPROVAL_EVENT_TYPES: readonly ApprovalEvent['type'][] = ['InvoiceApprovalRequested', 'InvoiceApproved', 'InvoiceApprovalRejected', 'InvoiceApprovalVoided'];
