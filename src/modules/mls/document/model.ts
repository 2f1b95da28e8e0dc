/**
 * The Peppol Message Level Status 1.0 (MLS) as data: the answer C3 sends C2 about one business
 * document it received (../shared/validation/peppol-mls-1.0.1, spec chapters 7-9). On the wire it is
 * a UBL 2.1 ApplicationResponse; build.ts writes it, read.ts reads it, validate.ts runs the official
 * Schematron on it.
 */

/** AP: delivered to C4 with confirmation; AB: delivered without confirmation; RE: rejected or delivery failed. */
export type MlsResponseCode = 'AP' | 'AB' | 'RE';
/** SV: syntax violation; BV: business rule, fatal; BW: business rule, warning; FD: failure of delivery. */
export type MlsStatusReason = 'SV' | 'BV' | 'BW' | 'FD';

export const MLS_RESPONSE_CODES: readonly MlsResponseCode[] = ['AP', 'AB', 'RE'];
export const MLS_STATUS_REASONS: readonly MlsStatusReason[] = ['SV', 'BV', 'BW', 'FD'];
/** The reasons that make an issue a failure: an RE needs one, an AP or AB may have none (SCH-MLS-24/25). */
export const MLS_FAILURE_REASONS: readonly MlsStatusReason[] = ['SV', 'BV', 'FD'];

export interface MlsIssue {
  /** an XPath of the issue in the business document, or 'NA' (not applicable) */
  location: string;
  description: string;
  reason: MlsStatusReason;
}

export interface MessageLevelStatus {
  /** cbc:ID (a UUID) */
  id: string;
  /** ISO instant; written as IssueDate (no zone, the UTC date) + IssueTime with 'Z' */
  issued_at: string;
  /** participant id '0242:123456' (C3's SPID); written EndpointID schemeID=0242 */
  sender: string;
  /** participant id '0242:…' (C2's SPID or the MLS_TO value) */
  receiver: string;
  response_code: MlsResponseCode;
  /** required for RE */
  description: string | null;
  /** the SBDH InstanceIdentifier of the business document answered */
  referenced_instance_id: string;
  /** grouped by location into cac:LineResponse elements on writing */
  issues: MlsIssue[];
}

export const MLS_CUSTOMIZATION_ID = 'urn:peppol:edec:mls:1.0';
export const MLS_PROFILE_ID = 'urn:peppol:edec:mls';
/** The SPIS participant scheme: the only one the MLS parties use (SCH-MLS-11, -16). */
export const MLS_PARTY_SCHEME = '0242';
/** The location of an issue that points nowhere in particular (case-sensitive). */
export const MLS_NO_LOCATION = 'NA';

export const MLS_NS = {
  ubl: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

export type MlsErrorCode =
  /** not well-formed XML */
  | 'MLS-MALFORMED'
  /** refused before reading: a DOCTYPE (entities), too large, nested too deep */
  | 'MLS-UNSAFE'
  /** not an ApplicationResponse, or one that is not an MLS (another CustomizationID) */
  | 'MLS-NOT-MLS'
  /** a mandatory element or attribute is absent or empty */
  | 'MLS-MISSING-FIELD'
  /** a value that is not allowed, or an element repeated that may appear once */
  | 'MLS-INVALID-FIELD';

/** readMls refuses untrusted input with one of these. */
export class MlsReadError extends Error {
  constructor(
    readonly code: MlsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MlsReadError';
  }
}

/** buildMls refuses a model it cannot write as a valid MLS (a programming error of the caller). */
export class MlsBuildError extends Error {
  readonly code = 'MLS-INVALID-FIELD';
  constructor(message: string) {
    super(message);
    this.name = 'MlsBuildError';
  }
}
