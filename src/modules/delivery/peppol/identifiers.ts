/**
 * Peppol identifiers as data (Peppol Policy for use of Identifiers 4.x): the schemes, the document
 * types and processes this service sends, and participant ids. An identifier is always written
 * and read as its value; the scheme travels beside it (SBDH Authority / Scope Identifier).
 */

/** Participant identifier scheme: ISO 6523 ICD, value `<4-digit ICD>:<identifier>`. */
export const PARTICIPANT_SCHEME = 'iso6523-actorid-upis';
/** Document type identifier scheme: `<root namespace>::<root name>##<customization>::<version>`. */
export const DOCUMENT_TYPE_SCHEME = 'busdox-docid-qns';
/** The wildcard document type scheme (PINT); accepted on reading, never written by us. */
export const DOCUMENT_TYPE_WILDCARD_SCHEME = 'peppol-doctype-wildcard';
/** Process identifier scheme. */
export const PROCESS_SCHEME = 'cenbii-procid-ubl';

export const INVOICE_DOCUMENT_TYPE_ID =
  'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
export const CREDIT_NOTE_DOCUMENT_TYPE_ID =
  'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
/**
 * The Slovak Tax Data Document. UNVERIFIED: the TDD 1.0.0 artefacts do not state it; this is the
 * busdox-docid-qns pattern applied to root `pxs:TaxData` and CustomizationID `urn:peppol:taxdata:sk-1`
 * (../shared/validation/sk-tdd/README.md §5.1). Check against the Peppol code lists before production.
 */
export const SK_TAX_DATA_DOCUMENT_TYPE_ID = 'urn:peppol:schema:sk-taxdata:1.0::TaxData##urn:peppol:taxdata:sk-1::1.0';

/** The Peppol Message Level Status 1.0 (a UBL 2.1 ApplicationResponse), the answer C3 sends C2. */
export const MLS_DOCUMENT_TYPE_ID = 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##urn:peppol:edec:mls:1.0::2.1';

/** Peppol BIS Billing 3.0 (the UBL ProfileID, BT-23). */
export const BILLING_PROCESS_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
/** Tax reporting to the Slovak Financial Administration (the TDD's ProfileID, ibr-tdd-02). */
export const TAX_REPORTING_PROCESS_ID = 'urn:peppol:taxreporting';
/** The MLS process (the MLS's ProfileID). */
export const MLS_PROCESS_ID = 'urn:peppol:edec:mls';

/** The document type of a UBL root: Peppol BIS Billing 3.0 for Invoice and CreditNote, the MLS for ApplicationResponse. */
export function documentTypeFor(root: 'Invoice' | 'CreditNote' | 'ApplicationResponse'): string {
  return { Invoice: INVOICE_DOCUMENT_TYPE_ID, CreditNote: CREDIT_NOTE_DOCUMENT_TYPE_ID, ApplicationResponse: MLS_DOCUMENT_TYPE_ID }[root];
}

/** A busdox-docid-qns value taken apart. */
export interface DocumentTypeParts {
  /** namespace URI of the document's root element (the SBDH Standard) */
  namespace: string;
  /** local name of the root element (the SBDH Type) */
  localName: string;
  /** the document's CustomizationID */
  customizationId: string;
  /** the syntax version (the SBDH TypeVersion), e.g. `2.1` for UBL */
  version: string;
}

/** Splits `<ns>::<name>##<customization>::<version>`; null when the value does not have that shape. */
export function documentTypeParts(documentTypeId: string): DocumentTypeParts | null {
  const hash = documentTypeId.indexOf('##');
  if (hash < 0) return null;
  const root = documentTypeId.slice(0, hash);
  const rest = documentTypeId.slice(hash + 2);
  const rootSplit = root.lastIndexOf('::');
  const restSplit = rest.lastIndexOf('::');
  if (rootSplit < 0 || restSplit < 0) return null;
  const parts = {
    namespace: root.slice(0, rootSplit),
    localName: root.slice(rootSplit + 2),
    customizationId: rest.slice(0, restSplit),
    version: rest.slice(restSplit + 2),
  };
  return Object.values(parts).every((p) => p !== '' && !/\s/.test(p)) ? parts : null;
}

export interface ParticipantId {
  /** the ISO 6523 ICD, four digits (`0245` Slovak DIČ, `9950` the sandbox's) */
  scheme: string;
  /** the identifier within the scheme, lower-cased: Peppol compares participant ids case-insensitively */
  value: string;
}

export class ParticipantIdError extends Error {
  readonly code = 'PEPPOL-PARTICIPANT-ID';
  constructor(message: string) {
    super(message);
    this.name = 'ParticipantIdError';
  }
}

// Policy for use of Identifiers 4.4: the identifier after the ICD is at most 130 characters.
const MAX_IDENTIFIER_LENGTH = 130;

/**
 * Parses `<scheme>:<value>`, also with the scheme prefix `iso6523-actorid-upis::`. Throws
 * ParticipantIdError for anything else.
 */
export function parseParticipantId(id: string): ParticipantId {
  const trimmed = id.trim();
  const bare = trimmed.toLowerCase().startsWith(`${PARTICIPANT_SCHEME}::`) ? trimmed.slice(PARTICIPANT_SCHEME.length + 2) : trimmed;
  const colon = bare.indexOf(':');
  const scheme = colon < 0 ? '' : bare.slice(0, colon);
  const value = colon < 0 ? '' : bare.slice(colon + 1);
  if (!/^\d{4}$/.test(scheme)) {
    throw new ParticipantIdError(`participant id "${id}" must be <4-digit ISO 6523 scheme>:<identifier>, e.g. 0245:2020123456`);
  }
  if (value === '' || value.length > MAX_IDENTIFIER_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ParticipantIdError(`participant id "${id}" needs an identifier of 1 to ${MAX_IDENTIFIER_LENGTH} printable ASCII characters without spaces after the scheme`);
  }
  return { scheme, value: value.toLowerCase() };
}

export function formatParticipantId(id: ParticipantId): string {
  return `${id.scheme}:${id.value}`;
}

/** The normalised form of a participant id (`0002:fr23342`); throws ParticipantIdError. */
export function normaliseParticipantId(id: string): string {
  return formatParticipantId(parseParticipantId(id));
}

/** Whether two participant ids name the same participant; a malformed one names nobody. */
export function sameParticipant(a: string, b: string): boolean {
  try {
    return normaliseParticipantId(a) === normaliseParticipantId(b);
  } catch (error) {
    if (error instanceof ParticipantIdError) return false;
    throw error;
  }
}

/** The participant scheme of the OpenPeppol Service Provider Identification Scheme (SPIS). */
export const SPIS_SCHEME = '0242';

// The MLS Schematron's regex_spis (peppol-mls-1.0.1.sch), applied case-insensitively as its v1.0.1 does:
// the 6-digit SPID, optionally an MLS_TO suffix of the same Service Provider.
const SPIS_VALUE = /^[0-9]{6}(-[0-9A-Z_]{3,12}(\.[0-9A-Z\-._~]{3,24})?)?$/i;

/** Whether `id` is a participant id of scheme 0242 whose value is a SPIS value (an SPID or an MLS_TO of one). */
export function isSpisParticipant(id: string): boolean {
  try {
    const parsed = parseParticipantId(id);
    return parsed.scheme === SPIS_SCHEME && SPIS_VALUE.test(parsed.value);
  } catch (error) {
    if (error instanceof ParticipantIdError) return false;
    throw error;
  }
}

/**
 * The SPIS participant id of an Access Point from its certificate's seat id (the CN): the Network
 * Policy's worked example turns `POP987654` into `0242:987654`, the 6 digits after the 3-letter
 * prefix. null for a CN without that form.
 */
export function spisParticipantOf(seatId: string): string | null {
  const match = /^P[A-Z]{2}([0-9]{6})$/i.exec(seatId.trim());
  return match ? `${SPIS_SCHEME}:${match[1]}` : null;
}

/*
 * Peppol Reporting (EUSR 1.1, TSR 1.0): the document types and process our Access Point sends its
 * monthly reports under, and OpenPeppol's receiving participant. Source: the Peppol Reporting
 * specifications (docs.peppol.eu/edelivery: End User Statistics Reporting 1.1, Transaction
 * Statistics Reporting 1.0, "Sending the report"), as phax/peppol-reporting states them
 * (peppol-reporting-api/.../CPeppolReporting.java: OPENPEPPOL_PARTICIPANT_ID, the customization
 * and profile ids; its document type checks name the two busdox-docid-qns values below).
 */
export const EUSR_DOCUMENT_TYPE_ID =
  'urn:fdc:peppol:end-user-statistics-report:1.1::EndUserStatisticsReport##urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1::1.1';
export const TSR_DOCUMENT_TYPE_ID =
  'urn:fdc:peppol:transaction-statistics-report:1.0::TransactionStatisticsReport##urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0::1.0';
export const REPORTING_PROCESS_ID = 'urn:fdc:peppol.eu:edec:bis:reporting:1.0';
/** OpenPeppol AISBL (scheme 9925, Belgian VAT), where every Service Provider sends its reports. */
export const OPENPEPPOL_REPORTING_RECEIVER = '9925:be0848934496';

/** Our SPIS participant, or one under it (`0242:000123-…`, what an MLS_TO of ours may name). */
export function isOurMlsParticipant(ourSpis: string, participant: string): boolean {
  const ours = ourSpis.toLowerCase();
  const it = participant.toLowerCase();
  return it === ours || it.startsWith(`${ours}-`);
}
