/**
 * Reads an incoming Peppol SBDH (untrusted): the header's fields, checked as the Envelope
 * Specification 2.0 states them, and the one business document as a standalone XML string that
 * src/modules/invoices/ubl/read.ts can read. Every refusal is an SbdhError with a code; element order is not
 * checked (no XSD), only presence, multiplicity and values.
 */
import { allAt, firstAt, type XmlElement, type XmlNode } from '../../../platform/xml/index.ts';
import {
  DOCUMENT_TYPE_SCHEME,
  DOCUMENT_TYPE_WILDCARD_SCHEME,
  PARTICIPANT_SCHEME,
  PROCESS_SCHEME,
  ParticipantIdError,
  documentTypeParts,
  isSpisParticipant,
  normaliseParticipantId,
} from './identifiers.ts';
import { XML_DECLARATION, afterEndTag, canonicalOf, childElements, qualifiedName, standaloneXml, verbatimElement, withParsed } from './payload-xml.ts';
import { HEADER_VERSION, MLS_TYPES, SBDH_NS, SCOPE, SbdhError, type MlsType, type SbdhEnvelope, type SbdhHeader } from './sbdh-model.ts';

const NS = { sh: SBDH_NS };

export function readSbdh(xml: string | Uint8Array): SbdhEnvelope {
  return readSbdhWith(xml, () => undefined).envelope;
}

/**
 * readSbdh, and `readPayload` run on the business document as parsed inside the envelope (its root
 * element: relative paths read it as they would the delivered text, which is the same XML), so a
 * receiver reads what it needs of the document without parsing it again. Not run when the
 * envelope is refused.
 */
export function readSbdhWith<T>(xml: string | Uint8Array, readPayload: (payload: XmlElement) => T): { envelope: SbdhEnvelope; read: T } {
  return withParsed(xml, 'SBDH-MALFORMED', 'the envelope', (doc, text) => {
    const root = doc.root;
    if (root.name !== 'StandardBusinessDocument' || root.namespaceUri !== SBDH_NS) {
      throw new SbdhError('SBDH-NOT-SBDH', `the root element is {${root.namespaceUri}}${root.name}, not {${SBDH_NS}}StandardBusinessDocument`);
    }
    const header = one(root, 'sh:StandardBusinessDocumentHeader', 'StandardBusinessDocumentHeader');
    const payloads = childElements(root).filter((child) => !child.isSameNode(header));
    if (payloads.length !== 1) {
      throw new SbdhError('SBDH-PAYLOAD', `the envelope must carry exactly one business document after its header; it carries ${payloads.length}`);
    }
    if (root.eval('boolean(text()[normalize-space()])') === true) {
      throw new SbdhError('SBDH-PAYLOAD', 'the envelope has text beside its header and business document');
    }
    const payload = payloads[0] as XmlElement;
    const fields = readHeader(header);
    checkAgainstPayload(fields, payload);
    const envelope = { ...fields, document: asSent(text, header, payload) };
    return { envelope, read: readPayload(payload) };
  });
}

/**
 * The business document exactly as the sender wrote it into the envelope (its characters from the
 * root's start tag to its end tag, after the UTF-8 declaration), so a receiver keeps the very
 * bytes the sender's UBL had; libxml2's standalone serialisation only where those characters do
 * not stand alone (the payload uses a namespace the envelope declares).
 */
function asSent(text: string, header: XmlElement, payload: XmlElement): string {
  const serialised = standaloneXml(payload);
  const headerEnd = afterEndTag(text, qualifiedName(header));
  // standaloneXml's text is the declaration, the element, a newline
  const element = serialised.slice(XML_DECLARATION.length, -1);
  const verbatim = headerEnd === null ? null : verbatimElement(text, qualifiedName(payload), headerEnd, () => canonicalOf(serialised), element);
  return verbatim === null ? serialised : `${XML_DECLARATION}${verbatim}`;
}

function readHeader(header: XmlElement): SbdhHeader {
  const version = text(header, 'sh:HeaderVersion', 'HeaderVersion');
  if (version !== HEADER_VERSION) invalid(`HeaderVersion is "${version}", not "${HEADER_VERSION}"`);
  const identification = one(header, 'sh:DocumentIdentification', 'DocumentIdentification');
  const scopes = one(header, 'sh:BusinessScope', 'BusinessScope');
  return {
    sender: party(header, 'Sender'),
    receiver: party(header, 'Receiver'),
    standard: text(identification, 'sh:Standard', 'DocumentIdentification/Standard'),
    typeVersion: text(identification, 'sh:TypeVersion', 'DocumentIdentification/TypeVersion'),
    instanceId: text(identification, 'sh:InstanceIdentifier', 'DocumentIdentification/InstanceIdentifier'),
    type: text(identification, 'sh:Type', 'DocumentIdentification/Type'),
    createdAt: dateTime(text(identification, 'sh:CreationDateAndTime', 'DocumentIdentification/CreationDateAndTime')),
    documentTypeId: scope(scopes, SCOPE.documentType, [DOCUMENT_TYPE_SCHEME, DOCUMENT_TYPE_WILDCARD_SCHEME]),
    processId: scope(scopes, SCOPE.process, [PROCESS_SCHEME]),
    countryC1: country(scope(scopes, SCOPE.countryC1, null)),
    mlsTo: mlsTo(scopes),
    mlsType: mlsType(scopes),
  };
}

/**
 * The one Scope of an optional `type` that we only honour when it is valid (MLS_TO, MLS_TYPE): its
 * InstanceIdentifier and Identifier, or null when absent, repeated or empty.
 */
function optionalScope(scopes: XmlElement, type: string): { value: string; scheme: string | undefined } | null {
  const found = allAt(scopes, `sh:Scope[normalize-space(sh:Type) = '${type}']`, NS);
  if (found.length !== 1) return null;
  const values = allAt(found[0] as XmlElement, 'sh:InstanceIdentifier', NS);
  const value = values.length === 1 ? (values[0] as XmlElement).content.trim() : '';
  return value === '' ? null : { value, scheme: firstAt(found[0] as XmlElement, 'sh:Identifier', NS)?.content.trim() };
}

/** MLS_TO (Peppol MLS 1.0 §4.1): a 0242 SPIS participant id; anything else is ignored (OP-MLS-07). */
function mlsTo(scopes: XmlElement): string | null {
  const found = optionalScope(scopes, SCOPE.mlsTo);
  if (!found || (found.scheme !== undefined && found.scheme !== PARTICIPANT_SCHEME) || !isSpisParticipant(found.value)) return null;
  return normaliseParticipantId(found.value);
}

/** MLS_TYPE (§4.2): one of two case-sensitive values; any other is read as absent (the default). */
function mlsType(scopes: XmlElement): MlsType | null {
  const value = optionalScope(scopes, SCOPE.mlsType)?.value;
  return MLS_TYPES.find((t) => t === value) ?? null;
}

/** The envelope describes its own payload: Standard and Type name the root, TypeVersion ends the document type id. */
function checkAgainstPayload(fields: SbdhHeader, payload: XmlElement): void {
  if (fields.standard !== payload.namespaceUri) {
    invalid(`DocumentIdentification/Standard "${fields.standard}" is not the namespace of the business document ("${payload.namespaceUri}")`);
  }
  if (fields.type !== payload.name) invalid(`DocumentIdentification/Type "${fields.type}" is not the business document's root element ("${payload.name}")`);
  const parts = documentTypeParts(fields.documentTypeId);
  if (!parts) invalid(`the DOCUMENTID "${fields.documentTypeId}" is not <namespace>::<root>##<customization>::<version>`);
  if (parts.namespace !== fields.standard || parts.localName !== fields.type) {
    invalid(`the DOCUMENTID "${fields.documentTypeId}" is not for {${fields.standard}}${fields.type}`);
  }
  if (parts.version !== fields.typeVersion) invalid(`DocumentIdentification/TypeVersion "${fields.typeVersion}" is not the version of the DOCUMENTID ("${parts.version}")`);
}

function party(header: XmlElement, field: 'Sender' | 'Receiver'): string {
  const identifier = one(one(header, `sh:${field}`, field), 'sh:Identifier', `${field}/Identifier`);
  const authority = identifier.attr('Authority')?.value.trim() ?? '';
  if (authority === '') missing(`${field}/Identifier/@Authority`);
  if (authority !== PARTICIPANT_SCHEME) invalid(`${field}/Identifier/@Authority is "${authority}", not "${PARTICIPANT_SCHEME}"`);
  const value = identifier.content.trim();
  if (value === '') missing(`${field}/Identifier`);
  try {
    return normaliseParticipantId(value);
  } catch (error) {
    if (error instanceof ParticipantIdError) invalid(`${field}/Identifier: ${error.message}`);
    throw error;
  }
}

/** The InstanceIdentifier of the one Scope of `type`; its Identifier (scheme), when given, must be one of `schemes`. */
function scope(scopes: XmlElement, type: string, schemes: string[] | null): string {
  const found = one(scopes, `sh:Scope[normalize-space(sh:Type) = '${type}']`, `BusinessScope/Scope of Type ${type}`);
  const value = text(found, 'sh:InstanceIdentifier', `${type} Scope/InstanceIdentifier`);
  const scheme = firstAt(found, 'sh:Identifier', NS)?.content.trim();
  if (schemes && scheme !== undefined && !schemes.includes(scheme)) invalid(`the ${type} scheme is "${scheme}", not ${schemes.map((s) => `"${s}"`).join(' or ')}`);
  return value;
}

function country(value: string): string {
  if (!/^[A-Z]{2}$/.test(value)) invalid(`COUNTRY_C1 "${value}" is not an ISO 3166-1 alpha-2 code`);
  return value;
}

// xs:dateTime; Peppol asks for a time zone, one without is read as UTC.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;

function dateTime(value: string): Date {
  const match = DATE_TIME.exec(value);
  const date = match ? new Date(`${match[1]}.${(match[2] ?? '0').slice(0, 3).padEnd(3, '0')}${match[3] ?? 'Z'}`) : null;
  if (!date || Number.isNaN(date.getTime())) invalid(`DocumentIdentification/CreationDateAndTime "${value}" is not an xs:dateTime`);
  return date;
}

function one(parent: XmlNode, xpath: string, field: string): XmlElement {
  const found = allAt(parent, xpath, NS);
  if (found.length === 0) missing(field);
  if (found.length > 1) invalid(`${field} appears ${found.length} times; exactly one is allowed`);
  return found[0] as XmlElement;
}

function text(parent: XmlNode, xpath: string, field: string): string {
  const value = one(parent, xpath, field).content.trim();
  if (value === '') missing(field);
  return value;
}

function missing(field: string): never {
  throw new SbdhError('SBDH-MISSING-FIELD', `the envelope has no ${field}`);
}

function invalid(message: string): never {
  throw new SbdhError('SBDH-INVALID-FIELD', message);
}
