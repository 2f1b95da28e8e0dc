import { SapiRefusal, type SapiDetail } from './errors.ts';

/**
 * The rules of POST /sapi/document/send that look at the request itself (sapi-sk.md, Send
 * request). Pure: the handler reads the XML and runs the validator, and passes what they found.
 */

/** MB as binary megabytes: 1 MB = 1,048,576 bytes, so the payload limit is 10,485,760 bytes of UTF-8. */
const MEGABYTE = 1024 * 1024;
export const MAX_PAYLOAD_BYTES = 10 * MEGABYTE;
/**
 * The JSON body may be larger than the payload it carries: escaping grows it (`"` → `\"`, a
 * newline → `\n`, and a client that escapes every non-ASCII character writes `č`, two bytes, as
 * `\u010d`, six: at most three times the bytes). 3 × the payload limit + 1 MB of metadata.
 */
export const SEND_BODY_LIMIT_BYTES = 3 * MAX_PAYLOAD_BYTES + MEGABYTE;

/** The header that names a send; see docs/sapi.md, Sending. */
export const SAPI_IDEMPOTENCY_HEADER = 'Idempotency-Key';
const SAPI_KEY_MAX_LENGTH = 255;

export interface SendMetadata {
  documentId: string;
  documentTypeId: string;
  processId: string;
  senderParticipantId: string;
  receiverParticipantId: string;
  creationDateTime: string;
}

export interface SendRequest {
  metadata: SendMetadata;
  payload: string;
  payloadFormat: 'XML';
  payloadEncoding?: string;
  checksum?: string;
}

const VAL = (details: SapiDetail[], message = 'the request is not valid') => new SapiRefusal('SAPI-VAL-001', message, details);

/** The Idempotency-Key: required, 1-255 printable ASCII characters (what every HTTP stack carries unchanged). */
export function requireIdempotencyKey(key: string | undefined): string {
  if (key === undefined || key === '') throw VAL([{ field: SAPI_IDEMPOTENCY_HEADER, issue: 'required' }], `the ${SAPI_IDEMPOTENCY_HEADER} header is required`);
  if (key.length > SAPI_KEY_MAX_LENGTH) throw VAL([{ field: SAPI_IDEMPOTENCY_HEADER, issue: `at most ${SAPI_KEY_MAX_LENGTH} characters` }]);
  if (!/^[\x20-\x7e]+$/.test(key)) throw VAL([{ field: SAPI_IDEMPOTENCY_HEADER, issue: 'printable ASCII characters only (U+0020 to U+007E)' }]);
  return key;
}

/** payloadEncoding: absent means UTF-8; UTF-8 is the only one (spelled in any case, with or without the hyphen). */
export function checkPayloadEncoding(encoding: string | undefined): void {
  if (encoding === undefined || /^utf-?8$/i.test(encoding.trim())) return;
  throw VAL([{ field: 'payloadEncoding', issue: `only UTF-8 is supported, not ${JSON.stringify(encoding.slice(0, 40))}` }]);
}

/**
 * The payload as bytes: its UTF-8 encoding, at most MAX_PAYLOAD_BYTES. A string with a lone
 * surrogate (a `\ud800` escape) has no UTF-8 encoding and is refused rather than altered.
 */
export function checkPayloadBytes(payload: { wellFormed: boolean; bytes: number }): void {
  if (!payload.wellFormed) throw VAL([{ field: 'payload', issue: 'not valid Unicode text (a lone surrogate): it has no UTF-8 encoding' }]);
  if (payload.bytes === 0) throw VAL([{ field: 'payload', issue: 'empty' }]);
  if (payload.bytes > MAX_PAYLOAD_BYTES) {
    throw VAL([{ field: 'payload', issue: `${payload.bytes} bytes; at most ${MAX_PAYLOAD_BYTES} bytes (10 MB, 1 MB = 1,048,576 bytes) of UTF-8` }]);
  }
}

/** checksum, when given, is the lowercase SHA-256 hex of the payload's UTF-8 bytes. */
export function checkChecksum(checksum: string | undefined, payloadSha256: string): void {
  if (checksum === undefined || checksum === payloadSha256) return;
  throw new SapiRefusal('SAPI-VAL-CHECKSUM', 'checksum is not the SHA-256 of the payload bytes', [
    { field: 'checksum', issue: `the payload's SHA-256 (lowercase hex of its UTF-8 bytes) is ${payloadSha256}` },
  ]);
}

/** What the UBL says about itself, read by the handler with the safe parser. */
export interface PayloadFacts {
  /** the UBL 2.1 root, or null for any other root (namespace included) */
  root: 'Invoice' | 'CreditNote' | null;
  /** `{namespace}localName` of the root, for the message */
  rootName: string;
  /** `scheme:value` of the seller's and the buyer's EndpointID, null when absent */
  senderEndpoint: string | null;
  receiverEndpoint: string | null;
  profileId: string | null;
  /** cbc:ID and cbc:IssueDate */
  invoiceNumber: string | null;
  issueDate: string | null;
  /** the seller's country code (cac:AccountingSupplierParty/…/cac:Country/cbc:IdentificationCode) */
  supplierCountry: string | null;
}

/** The Peppol identifiers the document's root calls for: its BIS Billing 3.0 document type and the billing process. */
export interface Expected {
  documentTypeId: string;
  processId: string;
}

/** Peppol identifiers compare without their scheme prefix; participant ids case-insensitively. */
const bare = (value: string, scheme: string) => (value.trim().toLowerCase().startsWith(`${scheme}::`) ? value.trim().slice(scheme.length + 2) : value.trim());
const participant = (value: string) => bare(value, 'iso6523-actorid-upis').toLowerCase();

/** A participant id without its optional `iso6523-actorid-upis::` scheme prefix (what the credentials' lock compares). */
export const participantValue = (value: string): string => bare(value, 'iso6523-actorid-upis');

/**
 * The document and its metadata must say the same (sapi-sk.md, Send request): the root is a UBL
 * Invoice or CreditNote; documentTypeId is that root's BIS Billing 3.0 type (an Invoice declared
 * as CreditNote is refused); processId is the billing process and the document's ProfileID;
 * sender and receiver are the seller's and buyer's EndpointIDs (`schemeID:value`). Every
 * disagreement is one detail of one SAPI-VAL-001.
 */
export function checkDocumentAgainstMetadata(metadata: SendMetadata, facts: PayloadFacts, expectedFor: (root: 'Invoice' | 'CreditNote') => Expected): { root: 'Invoice' | 'CreditNote'; invoiceNumber: string; issueDate: string } {
  if (facts.root === null) {
    throw VAL([{ field: 'payload', issue: `the root element is ${facts.rootName}; only a UBL 2.1 Invoice or CreditNote is accepted` }], 'unsupported document root');
  }
  const expected = expectedFor(facts.root);
  const details: SapiDetail[] = [];
  if (bare(metadata.documentTypeId, 'busdox-docid-qns') !== expected.documentTypeId) {
    details.push({ field: 'metadata.documentTypeId', issue: `the payload is a UBL ${facts.root}; its document type is ${expected.documentTypeId}` });
  }
  const process = bare(metadata.processId, 'cenbii-procid-ubl');
  if (process !== expected.processId) details.push({ field: 'metadata.processId', issue: `must be the billing process ${expected.processId}` });
  else if (facts.profileId !== process) details.push({ field: 'metadata.processId', issue: `the payload's ProfileID is ${facts.profileId ?? '(none)'}` });
  const party = (field: string, named: string, endpoint: string | null, role: string) => {
    if (endpoint === null) details.push({ field, issue: `the payload names no ${role} EndpointID` });
    else if (participant(named) !== participant(endpoint)) details.push({ field, issue: `the payload's ${role} EndpointID is ${endpoint}` });
  };
  party('metadata.senderParticipantId', metadata.senderParticipantId, facts.senderEndpoint, 'seller (AccountingSupplierParty)');
  party('metadata.receiverParticipantId', metadata.receiverParticipantId, facts.receiverEndpoint, 'buyer (AccountingCustomerParty)');
  if (facts.invoiceNumber === null) details.push({ field: 'payload', issue: 'the payload has no cbc:ID' });
  if (facts.issueDate === null || !/^\d{4}-\d{2}-\d{2}$/.test(facts.issueDate)) details.push({ field: 'payload', issue: 'the payload has no cbc:IssueDate (YYYY-MM-DD)' });
  if (details.length > 0) throw VAL(details, 'the metadata does not agree with the document');
  return { root: facts.root, invoiceNumber: facts.invoiceNumber ?? '', issueDate: facts.issueDate ?? '' };
}

/** What the validator found (XSD, CEN, Peppol, Slovak), as plain data. */
export interface ValidationOutcome {
  fatal: { rule: string; location: string; message: string }[];
  /** true: ran clean; false: ran with fatal findings; null: not run (its rule set is missing, or the engine failed) */
  stages: { xsd: boolean | null; peppol: boolean | null; slovak: boolean | null };
}

/** Findings that say the engine could not judge the document, not that the document is wrong. */
const ENGINE_FAILURES = new Set(['VALIDATION-TIMEOUT', 'VALIDATION-ENGINE-ERROR']);
const STAGE_NAMES = { xsd: 'UBL 2.1 XSD', peppol: 'CEN EN16931 and Peppol BIS 3.0 rules', slovak: 'Slovak rules' } as const;

/**
 * A fatal finding refuses the send (SAPI-VAL-001, one detail per finding: the rule id, and the
 * message with its location). With strict validation on (the default), a rule set that did not
 * run refuses it too, as SAPI-VAL-VALIDATION-UNAVAILABLE: nothing unvalidated is accepted. Off,
 * the send goes on with the rule sets that ran.
 */
export function checkValidation(outcome: ValidationOutcome, strict: boolean): void {
  const engineFailed = outcome.fatal.filter((f) => ENGINE_FAILURES.has(f.rule));
  if (engineFailed.length > 0) {
    throw new SapiRefusal('SAPI-VAL-VALIDATION-UNAVAILABLE', 'the validator could not judge the document now; retry the send', engineFailed.map((f) => ({ field: f.rule, issue: f.message })), 5);
  }
  if (outcome.fatal.length > 0) {
    throw VAL(outcome.fatal.map((f) => ({ field: f.rule, issue: f.location ? `${f.message} (at ${f.location})` : f.message })), `the document fails validation (${outcome.fatal.length} finding${outcome.fatal.length === 1 ? '' : 's'})`);
  }
  const missing = (Object.keys(STAGE_NAMES) as (keyof typeof STAGE_NAMES)[]).filter((stage) => outcome.stages[stage] === null);
  if (strict && missing.length > 0) {
    throw new SapiRefusal('SAPI-VAL-VALIDATION-UNAVAILABLE', 'strict validation is on and a rule set is not available: nothing is accepted unvalidated',
      missing.map((stage) => ({ field: stage, issue: `${STAGE_NAMES[stage]} not available` })), 60);
  }
}
