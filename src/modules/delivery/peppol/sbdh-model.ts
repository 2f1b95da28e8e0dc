/**
 * The Peppol Business Message Envelope (SBDH) 2.0 as data: names, the header's fields, and the one
 * error both directions throw.
 */

export const SBDH_NS = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';
export const HEADER_VERSION = '1.0';

/** BusinessScope/Scope/Type values this service reads and writes (others are ignored). */
export const SCOPE = { documentType: 'DOCUMENTID', process: 'PROCESSID', countryC1: 'COUNTRY_C1', mlsTo: 'MLS_TO', mlsType: 'MLS_TYPE' } as const;

/** MLS_TYPE: when C2 wants an MLS; absent, the Peppol Network Policy default (FAILURE_ONLY). */
export type MlsType = 'ALWAYS_SEND' | 'FAILURE_ONLY';
export const MLS_TYPES: readonly MlsType[] = ['ALWAYS_SEND', 'FAILURE_ONLY'];

/** What the header says. Participant ids come back normalised (`scheme:value`, value lower-cased). */
export interface SbdhHeader {
  sender: string;
  receiver: string;
  /** DOCUMENTID scope, a busdox-docid-qns value */
  documentTypeId: string;
  /** PROCESSID scope, a cenbii-procid-ubl value */
  processId: string;
  /** DocumentIdentification/InstanceIdentifier: the message id, unique per transmission */
  instanceId: string;
  createdAt: Date;
  /** COUNTRY_C1 scope: ISO 3166-1 alpha-2 country of the sending end user (C1) */
  countryC1: string;
  /** DocumentIdentification/Standard: namespace URI of the payload's root */
  standard: string;
  /** DocumentIdentification/TypeVersion: the last part of the document type id (`2.1` for UBL) */
  typeVersion: string;
  /** DocumentIdentification/Type: local name of the payload's root */
  type: string;
  /**
   * MLS_TO scope: where C2 wants the MLS (a 0242 SPIS participant id, normalised); null when absent,
   * repeated or invalid, which OP-MLS-07 says to ignore. Whether it starts with C2's own SPID
   * (OP-MLS-22) needs C2's certificate: the caller checks that.
   */
  mlsTo: string | null;
  /** MLS_TYPE scope; null when absent, repeated or not one of the two values (read as the default, FAILURE_ONLY). */
  mlsType: MlsType | null;
}

/** A read envelope: the header and the payload as a standalone XML document. */
export interface SbdhEnvelope extends SbdhHeader {
  document: string;
}

/** What the sender chooses; Standard, Type and TypeVersion follow from the document type id. */
export interface SbdhInput {
  sender: string;
  receiver: string;
  documentTypeId: string;
  processId: string;
  instanceId: string;
  createdAt: Date;
  countryC1: string;
  /** the business document (UBL Invoice/CreditNote, TDD, MLS) as XML text */
  document: string;
  /**
   * the document is text this service's XML writer produced (newXmlDocument's end(): the XML
   * declaration, then the root element, well-formed by construction), such as a TDD or an MLS we
   * built: enveloped as written, without parsing it back to find its root element
   */
  written?: boolean;
  /** MLS_TO scope, written when given: a 0242 SPIS participant id (else SBDH-INVALID-FIELD) */
  mlsTo?: string | null;
  /** MLS_TYPE scope, written when given */
  mlsType?: MlsType | null;
}

export type SbdhErrorCode =
  /** not well-formed XML */
  | 'SBDH-MALFORMED'
  /** refused before reading: a DOCTYPE (entities), too large, nested too deep */
  | 'SBDH-UNSAFE'
  /** the root is not sh:StandardBusinessDocument */
  | 'SBDH-NOT-SBDH'
  /** a mandatory header element or attribute is absent or empty */
  | 'SBDH-MISSING-FIELD'
  /** a header value is not allowed, repeated, or contradicts the payload */
  | 'SBDH-INVALID-FIELD'
  /** not exactly one business document, or one that cannot be enveloped */
  | 'SBDH-PAYLOAD';

export class SbdhError extends Error {
  constructor(
    readonly code: SbdhErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SbdhError';
  }
}
