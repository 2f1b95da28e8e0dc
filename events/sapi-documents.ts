import type { As4ReceiptRecord } from './delivery.ts';
import type { DomainEvent } from './event.ts';
import type { MlsIssueRecord } from './mls.ts';

/*
 * An outbound SAPI-SK document (sapi-sk.md, States): one stream per document,
 * `sapi_document-{document_id}`. A SAPI send makes no invoice of the sender's (no mirror invoice):
 * this stream is the document. `provider_document_id` is the handle the client sees
 * (`svc_sapi_doc_` + the document id's 32 hex digits). Peppol leg: ACCEPTED → PROCESSING → SENT,
 * or FAILED from either; FS leg (reporter C2): NOT_SUBMITTED → SUBMITTED → ACKNOWLEDGED or
 * REJECTED (FAILED on the wire), or FAILED when no filing could be made. The receiving Access
 * Point's MLS on the Peppol message is kept beside the leg (at most one).
 */

/** The six metadata fields as the client sent them (camelCase on the wire, snake_case here). */
export interface SapiDocumentMetadata {
  document_id: string;
  document_type_id: string;
  process_id: string;
  sender_participant_id: string;
  receiver_participant_id: string;
  creation_date_time: string;
}

/**
 * A send passed every check and was counted: the document is ACCEPTED. The payload is kept
 * exactly as received (the Peppol leg sends it byte for byte); the Peppol message id (the SBDH
 * instance identifier) is fixed here, so a repeated delivery after a crash is the same message.
 */
export type SapiDocumentAccepted = DomainEvent<
  'SapiDocumentAccepted',
  {
    document_id: string;
    provider_document_id: string;
    client_id: string;
    organisation_id: string;
    company_id: string;
    metadata: SapiDocumentMetadata;
    /** the UBL root: Invoice or CreditNote */
    document_root: 'Invoice' | 'CreditNote';
    /** the UBL cbc:ID (what FS events call invoice_number) */
    invoice_number: string;
    /** the UBL cbc:IssueDate (YYYY-MM-DD) */
    issue_date: string;
    /** the seller's country (the SBDH COUNTRY_C1) */
    country_c1: string;
    /** the UBL as received (UTF-8 text) */
    payload: string;
    /** lowercase SHA-256 hex of the payload's UTF-8 bytes */
    payload_sha256: string;
    peppol_message_id: string;
    /** counted past the plan's quota on a plan with overage (billed) */
    overage: boolean;
    accepted_at: string;
  }
>;

/** The Peppol leg started (the document is PROCESSING). */
export type SapiDocumentProcessing = DomainEvent<'SapiDocumentProcessing', { document_id: string; started_at: string }>;

/** One transport attempt of a leg failed; `retry_at` null when it was the last. Attempts survive restarts through these. */
export type SapiDeliveryAttemptFailed = DomainEvent<
  'SapiDeliveryAttemptFailed',
  { document_id: string; leg: 'peppol' | 'fs'; reason: string; retry_at: string | null; failed_at: string }
>;

/** SapiDocumentSent version 1 (stored before the receipt was kept); upcast with `as4: null`. */
export interface SapiDocumentSentV1Data {
  document_id: string;
  peppol_message_id: string;
  sender_participant_id: string;
  receiver_participant_id: string;
  document_type_id: string;
  sent_at: string;
}

/** The receiving Access Point took the message (the PeppolMessageSent of a SAPI document): SENT. Version 2: with the AS4 receipt. */
export type SapiDocumentSent = DomainEvent<'SapiDocumentSent', SapiDocumentSentV1Data & { as4: As4ReceiptRecord }>;

/** The Peppol leg failed for good (refused, rejected by the receiver, or out of attempts): FAILED. */
export type SapiDocumentFailed = DomainEvent<
  'SapiDocumentFailed',
  {
    document_id: string;
    peppol_message_id: string;
    reason: string;
    findings: { rule: string; message: string }[];
    /** the receiving Access Point refused it (as against our side or the transport) */
    rejected_by_receiver: boolean;
    failed_at: string;
  }
>;

/**
 * The receiving Access Point's Message Level Status on the document's Peppol message (as corner 2,
 * we ask for every status): AP or AB delivered, RE rejected with its reasons. Shown beside the
 * status, which it does not move (the spec's states end at SENT; FAILED comes only from ours).
 */
export type SapiDocumentMlsReceived = DomainEvent<
  'SapiDocumentMlsReceived',
  {
    document_id: string;
    peppol_message_id: string;
    /** the MLS's cbc:ID */
    mls_id: string;
    response_code: 'AP' | 'AB' | 'RE';
    description: string | null;
    issues: MlsIssueRecord[];
    received_at: string;
  }
>;

/** The tax data document (reporter C2) was filed with FS: fs.status SUBMITTED. */
export type SapiFsSubmitted = DomainEvent<
  'SapiFsSubmitted',
  { document_id: string; provider_document_id: string; fs_submission_id: string; tdd_uuid: string; reporter_role: 'C2'; submitted_at: string }
>;

/**
 * What the FS verdicts of a SAPI document carry: enough for the webhooks `invoice.fs_acknowledged`
 * / `invoice.fs_rejected` with resource.type `c5_submission` (no mirror invoice: invoice_id null,
 * supplier_vat_id null), without reading anything else.
 */
interface SapiFsVerdictData {
  document_id: string;
  provider_document_id: string;
  organisation_id: string;
  company_id: string;
  /** the UBL cbc:ID */
  invoice_number: string;
  direction: 'sent';
  reporter_role: 'C2';
  fs_submission_id: string;
  tdd_uuid: string;
  /** Peppol MLS response code: AP accepted, RE rejected */
  mls_response_code: string;
}

/** FS acknowledged the filing: fs.status ACKNOWLEDGED. */
export type SapiFsAcknowledged = DomainEvent<'SapiFsAcknowledged', SapiFsVerdictData & { acknowledged_at: string }>;

/** FS rejected the filing, with its findings: fs.status FAILED (errorMessage from the reasons). */
export type SapiFsRejected = DomainEvent<
  'SapiFsRejected',
  SapiFsVerdictData & { rejected_at: string; reasons: { description: string; issues: { rule: string; message: string; location: string | null }[] } }
>;

/** No filing could be made (no TDD can be built from the document, or the last attempt failed): fs.status FAILED. */
export type SapiFsFailed = DomainEvent<'SapiFsFailed', { document_id: string; reason: string; failed_at: string }>;

export type SapiDocumentEvent =
  | SapiDocumentAccepted
  | SapiDocumentProcessing
  | SapiDeliveryAttemptFailed
  | SapiDocumentSent
  | SapiDocumentFailed
  | SapiDocumentMlsReceived
  | SapiFsSubmitted
  | SapiFsAcknowledged
  | SapiFsRejected
  | SapiFsFailed;

export const SAPI_DOCUMENT_EVENT_TYPES: readonly SapiDocumentEvent['type'][] = [
  'SapiDocumentAccepted', 'SapiDocumentProcessing', 'SapiDeliveryAttemptFailed', 'SapiDocumentSent', 'SapiDocumentFailed', 'SapiDocumentMlsReceived',
  'SapiFsSubmitted', 'SapiFsAcknowledged', 'SapiFsRejected', 'SapiFsFailed',
];

export const sapiDocumentStream = (documentId: string) => `sapi_document-${documentId}`;

/** The client's handle of a document: `svc_sapi_doc_` + the document id (a UUID) as 32 hex digits. */
export const PROVIDER_DOCUMENT_PREFIX = 'svc_sapi_doc_';
export const providerDocumentIdOf = (documentId: string) => `${PROVIDER_DOCUMENT_PREFIX}${documentId.replace(/-/g, '')}`;

/** The document id a handle names, or null when it is not one of ours. */
export function documentIdOf(providerDocumentId: string): string | null {
  const match = /^svc_sapi_doc_([0-9a-f]{32})$/.exec(providerDocumentId);
  if (!match) return null;
  const h = match[1]!;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
