import type { DomainEvent } from './event.ts';

/*
 * The SAPI-SK inbox: the connector's own copy of each Peppol document our Access Point received
 * for a company that has a SAPI client, one stream per document (sapi_inbox-{document_id}),
 * written together with the native inbound invoice (whose InvoiceReceived names the same handle
 * as provider_document_id). The handle is a function of the company and the Peppol message id, so
 * a message received twice is one document.
 */

export type SapiInboxDocumentReceived = DomainEvent<
  'SapiInboxDocumentReceived',
  {
    /** the inbox handle, `svc_sapi_in_` + 32 hex */
    document_id: string;
    organisation_id: string;
    company_id: string;
    /** the native inbound invoice made from the same message */
    invoice_id: string;
    /** the SBDH InstanceIdentifier */
    peppol_message_id: string;
    /** SBDH DOCUMENTID scope */
    document_type_id: string;
    /** SBDH PROCESSID scope */
    process_id: string;
    sender_participant_id: string;
    receiver_participant_id: string;
    /** SBDH CreationDateAndTime: when the sender made the message (ISO 8601) */
    creation_date_time: string;
    /** the sender's own number for the document (the UBL's cbc:ID) */
    sender_document_id: string;
    /** the UBL document exactly as the sender put it in the envelope */
    payload: string;
    received_at: string;
  }
>;

/** A SAPI client of the company took the document (POST …/acknowledge); only the first counts. */
export type SapiInboxDocumentAcknowledged = DomainEvent<
  'SapiInboxDocumentAcknowledged',
  {
    document_id: string;
    company_id: string;
    /** the SAPI client that acknowledged */
    acknowledged_by: string;
    acknowledged_at: string;
  }
>;

export type SapiInboxEvent = SapiInboxDocumentReceived | SapiInboxDocumentAcknowledged;

export const SAPI_INBOX_EVENT_TYPES: readonly SapiInboxEvent['type'][] = ['SapiInboxDocumentReceived', 'SapiInboxDocumentAcknowledged'];

export const sapiInboxStream = (documentId: string) => `sapi_inbox-${documentId}`;
