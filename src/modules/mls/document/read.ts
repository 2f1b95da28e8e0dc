/**
 * Reads an MLS (untrusted: it comes from another Access Point) into a MessageLevelStatus. The
 * hardened parser of src/platform/xml refuses a DOCTYPE, oversized or too deep input before reading.
 * The reader takes what it needs to match the answer to the message it answers and refuses what
 * would make that ambiguous (MlsReadError with a code); the rest of the MLS rules are the
 * validator's (validate.ts). Values are trimmed as the Schematron's normalize-space reads them;
 * participant ids come back as `0242:<value>`, the value lower-cased (Peppol compares them
 * case-insensitively, as the SBDH reader returns them).
 */
import { allAt, parseUntrusted, type XmlElement, type XmlNode } from '../../../platform/xml/index.ts';
import {
  MLS_CUSTOMIZATION_ID,
  MLS_NS,
  MLS_RESPONSE_CODES,
  MLS_STATUS_REASONS,
  MlsReadError,
  type MessageLevelStatus,
  type MlsIssue,
  type MlsResponseCode,
  type MlsStatusReason,
} from './model.ts';

const UNSAFE = new Set(['XML-DOCTYPE', 'XML-TOO-LARGE', 'XML-TOO-MANY-ELEMENTS', 'XML-TOO-MANY-ATTRIBUTES', 'XML-TOO-MANY-NAMESPACES', 'XML-TOO-DEEP']);

export function readMls(xml: string | Uint8Array): MessageLevelStatus {
  const parsed = parseUntrusted(xml);
  if (!parsed.ok) {
    const { rule, message } = parsed.finding;
    throw new MlsReadError(UNSAFE.has(rule) ? 'MLS-UNSAFE' : 'MLS-MALFORMED', `${rule}: ${message}`);
  }
  const { doc } = parsed.parsed;
  try {
    return readRoot(doc.root);
  } finally {
    doc.dispose();
  }
}

/** readMls of an MLS already parsed, from its root element (one inside an envelope reads the same: every path is relative). */
export function readMlsElement(root: XmlElement): MessageLevelStatus {
  return readRoot(root);
}

function readRoot(root: XmlElement): MessageLevelStatus {
  if (root.name !== 'ApplicationResponse' || root.namespaceUri !== MLS_NS.ubl) {
    throw new MlsReadError('MLS-NOT-MLS', `the root element is {${root.namespaceUri}}${root.name}, not {${MLS_NS.ubl}}ApplicationResponse`);
  }
  const customization = optionalText(root, 'cbc:CustomizationID', 'CustomizationID');
  if (customization !== MLS_CUSTOMIZATION_ID) {
    throw new MlsReadError('MLS-NOT-MLS', `the CustomizationID is ${customization === null ? 'missing' : `"${customization}"`}, not "${MLS_CUSTOMIZATION_ID}": not an MLS`);
  }
  const documentResponse = one(root, 'cac:DocumentResponse', 'DocumentResponse');
  const response = one(documentResponse, 'cac:Response', 'DocumentResponse/Response');
  return {
    id: text(root, 'cbc:ID', 'ID'),
    issued_at: issuedAt(text(root, 'cbc:IssueDate', 'IssueDate'), text(root, 'cbc:IssueTime', 'IssueTime')),
    sender: party(root, 'SenderParty'),
    receiver: party(root, 'ReceiverParty'),
    response_code: code(text(response, 'cbc:ResponseCode', 'ResponseCode'), MLS_RESPONSE_CODES, 'ResponseCode') as MlsResponseCode,
    description: optionalText(response, 'cbc:Description', 'DocumentResponse/Response/Description'),
    referenced_instance_id: text(one(documentResponse, 'cac:DocumentReference', 'DocumentReference'), 'cbc:ID', 'DocumentReference/ID'),
    issues: allAt(documentResponse, 'cac:LineResponse', MLS_NS).flatMap((line) => issues(line as XmlElement)),
  };
}

/** The issues of one cac:LineResponse: one per cac:Response, all at its LineID. */
function issues(line: XmlElement): MlsIssue[] {
  const location = text(one(line, 'cac:LineReference', 'LineResponse/LineReference'), 'cbc:LineID', 'LineResponse/LineReference/LineID');
  const responses = allAt(line, 'cac:Response', MLS_NS);
  if (responses.length === 0) missing('LineResponse/Response');
  return responses.map((r) => ({
    location,
    description: text(r, 'cbc:Description', 'LineResponse/Response/Description'),
    reason: code(text(one(r, 'cac:Status', 'LineResponse/Response/Status'), 'cbc:StatusReasonCode', 'StatusReasonCode'), MLS_STATUS_REASONS, 'StatusReasonCode') as MlsStatusReason,
  }));
}

/** `<schemeID>:<value>` of the party's EndpointID, the value lower-cased. */
function party(root: XmlNode, field: 'SenderParty' | 'ReceiverParty'): string {
  const endpoint = one(one(root, `cac:${field}`, field), 'cbc:EndpointID', `${field}/EndpointID`);
  const value = endpoint.content.trim();
  if (value === '') missing(`${field}/EndpointID`);
  const scheme = endpoint.attr('schemeID')?.value.trim() ?? '';
  if (scheme === '') missing(`${field}/EndpointID/@schemeID`);
  if (!/^\d{4}$/.test(scheme)) invalid(`${field}/EndpointID/@schemeID "${scheme}" is not a 4-digit participant scheme`);
  if (!/^[\x21-\x7e]{1,130}$/.test(value)) invalid(`${field}/EndpointID "${value}" is not a participant identifier`);
  return `${scheme}:${value.toLowerCase()}`;
}

function code(value: string, allowed: readonly string[], field: string): string {
  if (!allowed.includes(value)) invalid(`${field} "${value}" is not ${allowed.join(', ')}`);
  return value;
}

// IssueDate: xs:date without zone (SCH-MLS-04); IssueTime: hh:mm:ss[.fraction] with a zone (SCH-MLS-06), read as UTC without one.
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^(\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;

function issuedAt(date: string, time: string): string {
  if (!DATE.test(date)) invalid(`IssueDate "${date}" is not a date (YYYY-MM-DD, no time zone)`);
  const match = TIME.exec(time);
  const instant = match ? new Date(`${date}T${match[1]}.${(match[2] ?? '0').slice(0, 3).padEnd(3, '0')}${match[3] ?? 'Z'}`) : null;
  if (!instant || Number.isNaN(instant.getTime())) invalid(`IssueTime "${time}" is not a time (hh:mm:ss with a time zone)`);
  return instant.toISOString();
}

function one(parent: XmlNode, xpath: string, field: string): XmlElement {
  const found = allAt(parent, xpath, MLS_NS);
  if (found.length === 0) missing(field);
  if (found.length > 1) invalid(`${field} appears ${found.length} times; exactly one is allowed`);
  return found[0] as XmlElement;
}

function text(parent: XmlNode, xpath: string, field: string): string {
  const value = one(parent, xpath, field).content.trim();
  if (value === '') missing(field);
  return value;
}

function optionalText(parent: XmlNode, xpath: string, field: string): string | null {
  const found = allAt(parent, xpath, MLS_NS);
  if (found.length > 1) invalid(`${field} appears ${found.length} times; at most one is allowed`);
  const value = (found[0] as XmlElement | undefined)?.content.trim() ?? '';
  return value === '' ? null : value;
}

function missing(field: string): never {
  throw new MlsReadError('MLS-MISSING-FIELD', `the MLS has no ${field}`);
}

function invalid(message: string): never {
  throw new MlsReadError('MLS-INVALID-FIELD', message);
}
