import type { DomainEvent } from './event.ts';
import type { InvoiceContentPayload, InvoiceTotalsPayload } from './invoice-document.ts';
import type { MlsIssueRecord } from './mls.ts';

/**
 * Delivery events of an invoice stream: the Peppol leg (to the buyer's Access Point) and the FS
 * leg (the tax data document to the Financial Administration, corner 5) run in parallel after a
 * send; every attempt and outcome is an event, so the history shows the whole journey.
 */

/** Send accepted: both legs start. The Peppol message id (SBDH instance identifier) is fixed here, so a repeated attempt sends the same message. */
export type InvoiceQueued = DomainEvent<
  'InvoiceQueued',
  { invoice_id: string; queued_by: string; peppol_message_id: string; receiver_participant_id: string; queued_at: string }
>;

/** The audit entry the spec asks for on send: `sent_peppol` with result PENDING. */
export type InvoiceAuditEntryRecorded = DomainEvent<
  'InvoiceAuditEntryRecorded',
  { invoice_id: string; action: 'sent_peppol'; result: 'PENDING'; actor_id: string; at: string }
>;

/** A transport failure of one attempt on either leg; `retry_at` null when it was the last attempt. */
export type DeliveryAttemptFailed = DomainEvent<
  'DeliveryAttemptFailed',
  { invoice_id: string; leg: 'peppol' | 'fs'; attempt: number; reason: string; retry_at: string | null; failed_at: string }
>;

/**
 * What the receiving Access Point acknowledged over AS4, kept as proof (an auditor shows it):
 * our eb:MessageId, the receiver's signed eb:Receipt SOAP envelope as it arrived (UTF-8 XML; its
 * bytes are what the signature covers, so it is never re-serialised), and the receiving Access
 * Point's certificate CN. Null when the message did not go over AS4 (the sandbox), or when the
 * send was recorded without an answer in hand (a crash between send and record).
 */
export type As4ReceiptRecord = { message_id: string; receipt: string; receiving_ap: string } | null;

/** PeppolMessageSent version 1 (stored before the receipt was kept); upcast with `as4: null`. */
export interface PeppolMessageSentV1Data {
  invoice_id: string;
  peppol_message_id: string;
  sender_participant_id: string;
  receiver_participant_id: string;
  document_type_id: string;
  sent_at: string;
}

/** The receiving Access Point accepted the AS4 message (sent_peppol). Version 2: with the receipt. */
export type PeppolMessageSent = DomainEvent<'PeppolMessageSent', PeppolMessageSentV1Data & { as4: As4ReceiptRecord }>;

/**
 * The receiving Access Point's Message Level Status on this invoice's Peppol message (we are corner
 * 2). Written with its consequence in one append: PeppolDeliveryConfirmed for AP or AB,
 * PeppolDeliveryFailed (rejected by the receiver) for RE.
 */
export type PeppolMlsReceived = DomainEvent<
  'PeppolMlsReceived',
  {
    invoice_id: string;
    peppol_message_id: string;
    mls_id: string;
    response_code: 'AP' | 'AB' | 'RE';
    description: string | null;
    issues: MlsIssueRecord[];
    received_at: string;
  }
>;

/** The receiver's delivery status reported the message delivered (invoice.delivered). */
export type PeppolDeliveryConfirmed = DomainEvent<'PeppolDeliveryConfirmed', { invoice_id: string; peppol_message_id: string; delivered_at: string }>;

/**
 * The Peppol leg gave up: a permanent refusal (unknown participant, invalid document) or the last
 * attempt failed. `rejected_by_receiver` (true, or absent) marks a refusal the receiving Access
 * Point returned (it could not read the document, does not serve the participant, or the
 * receiver refused it: invoice.rejected), as against one decided on our side or a transport
 * give-up; events written before it existed lack it.
 */
export type PeppolDeliveryFailed = DomainEvent<
  'PeppolDeliveryFailed',
  {
    invoice_id: string;
    peppol_message_id: string;
    reason: string;
    findings: { rule: string; message: string }[];
    attempts: number;
    failed_at: string;
    rejected_by_receiver?: true;
  }
>;

/** The tax data document was accepted for processing by FS (sent_fs). */
export type FsCopySubmitted = DomainEvent<
  'FsCopySubmitted',
  { invoice_id: string; fs_submission_id: string; tdd_uuid: string; reporter_role: 'C2' | 'C3'; submitted_at: string }
>;

export type FsCopyAcknowledged = DomainEvent<
  'FsCopyAcknowledged',
  { invoice_id: string; fs_submission_id: string; tdd_uuid: string; mls_response_code: string; acknowledged_at: string }
>;

export interface FsRejectionReasons {
  description: string;
  issues: { rule: string; message: string; location: string | null }[];
}

export type FsCopyRejected = DomainEvent<
  'FsCopyRejected',
  { invoice_id: string; fs_submission_id: string; tdd_uuid: string; mls_response_code: string; reasons: FsRejectionReasons; rejected_at: string }
>;

/** The FS leg gave up: the TDD could not be built, or the last attempt failed. */
export type FsFilingFailed = DomainEvent<'FsFilingFailed', { invoice_id: string; reason: string; attempts: number; failed_at: string }>;

/** Finished by hand: the invoice reached the buyer outside Peppol (mark-sent). */
export type InvoiceMarkedSent = DomainEvent<
  'InvoiceMarkedSent',
  { invoice_id: string; marked_by: string; delivered_at: string; note: string | null; at: string }
>;

/**
 * An inbound Peppol invoice for a company of this service: its own invoice stream, read-only.
 * Content and totals come from the delivered UBL (kept as received); invoice.received is published
 * from this event.
 */
export type InvoiceReceived = DomainEvent<
  'InvoiceReceived',
  {
    invoice_id: string;
    organisation_id: string;
    company_id: string;
    workspace_id: string;
    source: 'peppol';
    peppol_message_id: string;
    sender_participant_id: string;
    receiver_participant_id: string;
    document_type_id: string;
    /** SAPI-SK receive handle; null when the connector holds no copy */
    provider_document_id: string | null;
    /** the keys invoice.received publishes, as the document states them */
    invoice_number: string;
    supplier_vat_id: string;
    content: InvoiceContentPayload;
    totals: InvoiceTotalsPayload;
    /** the UBL document as delivered (the SBDH payload) */
    ubl: string;
    received_at: string;
  }
>;

/**
 * Our Access Point took an AS4 message (corner 3) and answered it with this signed receipt: kept so
 * a sender repeating the eb:MessageId gets the same receipt, and an auditor can show what we
 * acknowledged. Its own stream per message id (commands/delivery/as4-inbound.ts), not an invoice's.
 */
export type As4MessageReceived = DomainEvent<
  'As4MessageReceived',
  {
    message_id: string;
    /** the CN of the certificate that signed the message */
    sender_ap: string;
    original_sender: string;
    final_recipient: string;
    document_type_id: string;
    process_id: string;
    /** our receipt: its eb:MessageId, and the SOAP envelope as sent */
    receipt_message_id: string;
    receipt_content_type: string;
    receipt: string;
    received_at: string;
  }
>;

export type DeliveryEvent =
  | InvoiceQueued
  | InvoiceAuditEntryRecorded
  | DeliveryAttemptFailed
  | PeppolMessageSent
  | PeppolDeliveryConfirmed
  | PeppolDeliveryFailed
  | PeppolMlsReceived
  | FsCopySubmitted
  | FsCopyAcknowledged
  | FsCopyRejected
  | FsFilingFailed
  | InvoiceMarkedSent;

export const DELIVERY_EVENT_TYPES: readonly DeliveryEvent['type'][] = [
  'InvoiceQueued', 'InvoiceAuditEntryRecorded', 'DeliveryAttemptFailed', 'PeppolMessageSent', 'PeppolDeliveryConfirmed',
  'PeppolDeliveryFailed', 'PeppolMlsReceived', 'FsCopySubmitted', 'FsCopyAcknowledged', 'FsCopyRejected', 'FsFilingFailed', 'InvoiceMarkedSent',
];
