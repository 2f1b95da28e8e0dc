/**
 * Wraps a business document in the Peppol Business Message Envelope (SBDH) 2.0. The header is
 * written with xmlbuilder2 (namespace URI on every element); the document is parsed with the
 * hardened parser and its root element serialised by libxml2, then put where the header writer
 * left a marker: the document's own characters from its root's start tag to its end tag when the
 * parser and C14N agree they are that element, else libxml2's serialisation of it. The document is
 * never re-read by a second, laxer parser, so what the receiver unwraps is the same XML (same
 * canonical form, and as a rule the same bytes), minus the prolog (XML declaration, comments and
 * processing instructions outside the root element).
 */
import { MAX_DEPTH, MAX_DOCUMENT_BYTES, nestsAtLeast } from '../../../platform/xml/index.ts';
import { newXmlDocument, type XmlElementWriter } from '../../../platform/xml/write.ts';
import {
  DOCUMENT_TYPE_SCHEME,
  PARTICIPANT_SCHEME,
  PROCESS_SCHEME,
  ParticipantIdError,
  documentTypeParts,
  isSpisParticipant,
  normaliseParticipantId,
  type DocumentTypeParts,
} from './identifiers.ts';
import { canonicalOfRoot, qualifiedName, verbatimElement, withParsed } from './payload-xml.ts';
import { HEADER_VERSION, MLS_TYPES, SBDH_NS, SCOPE, SbdhError, type SbdhInput } from './sbdh-model.ts';

// A comment only the header writer can produce: header values are text, where `<` is escaped.
const MARKER_TEXT = 'sbdh-payload';
const MARKER = `<!--${MARKER_TEXT}-->`;

/** The SBDH envelope around `input.document`. Throws SbdhError for a value or document it cannot carry. */
export function wrapInSbdh(input: SbdhInput): string {
  const sender = participant(input.sender, 'Sender');
  const receiver = participant(input.receiver, 'Receiver');
  const documentTypeId = required(input.documentTypeId, 'document type id');
  const docType = documentTypeParts(documentTypeId);
  if (!docType) throw new SbdhError('SBDH-INVALID-FIELD', `document type id "${input.documentTypeId}" is not a ${DOCUMENT_TYPE_SCHEME} value`);
  const processId = required(input.processId, 'process id');
  const instanceId = required(input.instanceId, 'instance identifier');
  if (Number.isNaN(input.createdAt.getTime())) throw new SbdhError('SBDH-INVALID-FIELD', 'creation time is not a valid date');
  const countryC1 = input.countryC1.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(countryC1)) throw new SbdhError('SBDH-INVALID-FIELD', `COUNTRY_C1 "${input.countryC1}" is not an ISO 3166-1 alpha-2 code`);
  const mlsTo = input.mlsTo === undefined || input.mlsTo === null ? null : spisParticipant(input.mlsTo);
  const mlsType = input.mlsType ?? null;
  if (mlsType !== null && !MLS_TYPES.includes(mlsType)) throw new SbdhError('SBDH-INVALID-FIELD', `MLS_TYPE "${String(mlsType)}" is not ${MLS_TYPES.join(' or ')}`);
  const payload = input.written ? writtenRoot(input.document, docType) : payloadRoot(input.document, docType);

  const xml = newXmlDocument(SBDH_NS, 'StandardBusinessDocument');
  const root = xml.root;
  const header = el(root, 'StandardBusinessDocumentHeader');
  el(header, 'HeaderVersion', HEADER_VERSION);
  el(el(header, 'Sender'), 'Identifier', sender, { Authority: PARTICIPANT_SCHEME });
  el(el(header, 'Receiver'), 'Identifier', receiver, { Authority: PARTICIPANT_SCHEME });
  const identification = el(header, 'DocumentIdentification');
  el(identification, 'Standard', docType.namespace);
  el(identification, 'TypeVersion', docType.version);
  el(identification, 'InstanceIdentifier', instanceId);
  el(identification, 'Type', docType.localName);
  el(identification, 'CreationDateAndTime', input.createdAt.toISOString());
  const scope = el(header, 'BusinessScope');
  scopeOf(scope, SCOPE.documentType, documentTypeId, DOCUMENT_TYPE_SCHEME);
  scopeOf(scope, SCOPE.process, processId, PROCESS_SCHEME);
  scopeOf(scope, SCOPE.countryC1, countryC1);
  if (mlsTo !== null) scopeOf(scope, SCOPE.mlsTo, mlsTo, PARTICIPANT_SCHEME);
  if (mlsType !== null) scopeOf(scope, SCOPE.mlsType, mlsType);
  root.com(MARKER_TEXT);

  const text = xml.end();
  const at = text.indexOf(MARKER);
  if (at < 0 || text.indexOf(MARKER, at + 1) >= 0) throw new Error('SBDH writer: the payload marker is not there exactly once');
  const envelope = text.slice(0, at) + payload + text.slice(at + MARKER.length);
  if (Buffer.byteLength(envelope) > MAX_DOCUMENT_BYTES) {
    throw new SbdhError('SBDH-PAYLOAD', `the envelope would be larger than ${MAX_DOCUMENT_BYTES} bytes, more than a receiver here accepts`);
  }
  return envelope;
}

function el(parent: XmlElementWriter, name: string, text?: string, attrs?: Record<string, string>): XmlElementWriter {
  const child = parent.ele(SBDH_NS, name, attrs);
  if (text !== undefined) child.txt(text);
  return child;
}

function scopeOf(parent: XmlElementWriter, type: string, value: string, scheme?: string): void {
  const scope = el(parent, 'Scope');
  el(scope, 'Type', type);
  el(scope, 'InstanceIdentifier', value);
  if (scheme !== undefined) el(scope, 'Identifier', scheme);
}

function participant(id: string, field: string): string {
  try {
    return normaliseParticipantId(id);
  } catch (error) {
    if (error instanceof ParticipantIdError) throw new SbdhError('SBDH-INVALID-FIELD', `${field}: ${error.message}`);
    throw error;
  }
}

/** MLS_TO: a reader ignores an invalid one (OP-MLS-07), so writing one would silently lose it. */
function spisParticipant(id: string): string {
  if (!isSpisParticipant(id)) throw new SbdhError('SBDH-INVALID-FIELD', `MLS_TO "${id}" is not a Peppol SPIS participant id (0242:<6 digits>[-<suffix>])`);
  return normaliseParticipantId(id);
}

// XML 1.0 Char: xmlbuilder2 writes anything else as is, which no parser reads back.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** A free-text header value: trimmed, not empty, only characters XML can carry. */
function required(value: string, what: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new SbdhError('SBDH-MISSING-FIELD', `the ${what} is empty`);
  if (NOT_XML_CHAR.test(trimmed)) throw new SbdhError('SBDH-INVALID-FIELD', `the ${what} has a character XML cannot carry`);
  return trimmed;
}

/**
 * The root element of a document our writer produced: its characters after the XML declaration,
 * which is what payloadRoot finds in such a document (the writer's text reads back to its own
 * characters), without the parse. The writer names the root with the prefix of its namespace and
 * declares that namespace on it, so its start tag says whether it is the document type's root.
 */
function writtenRoot(document: string, docType: DocumentTypeParts): string {
  const declaration = /^<\?xml [^>]*\?>\s*/.exec(document);
  const element = document.slice(declaration?.[0].length ?? 0).trimEnd();
  const start = /^<(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)[\s>]/.exec(element);
  const prefix = start?.[1];
  const declares = start && new RegExp(`^[^>]*\\sxmlns${prefix ? `:${prefix}` : ''}="${escapeRegExp(docType.namespace)}"`).test(element);
  if (start?.[2] !== docType.localName || !declares) {
    throw new SbdhError('SBDH-PAYLOAD', `the document type is for {${docType.namespace}}${docType.localName}, but the written document's root is not`);
  }
  return element;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The document's root element as XML, checked against the document type it is declared as. Refused:
 * a document in no namespace, and one whose root leaves elements in no namespace without declaring
 * a default namespace (inside the envelope they would fall into the SBDH namespace; UBL has none).
 */
function payloadRoot(document: string, docType: DocumentTypeParts): string {
  return withParsed(document, 'SBDH-PAYLOAD', 'the business document', (doc) => {
    const root = doc.root;
    if (root.namespaceUri !== docType.namespace || root.name !== docType.localName) {
      throw new SbdhError(
        'SBDH-PAYLOAD',
        `the document type is for {${docType.namespace}}${docType.localName}, but the document's root is {${root.namespaceUri}}${root.name}`,
      );
    }
    if (!('' in root.nsDeclarations) && doc.eval("boolean(//*[namespace-uri() = ''])") === true) {
      throw new SbdhError('SBDH-PAYLOAD', 'the business document has elements in no namespace and no default namespace declaration on its root');
    }
    // one level deeper inside the envelope, which the reader's depth limit counts
    if (nestsAtLeast(doc, MAX_DEPTH - 1)) {
      throw new SbdhError('SBDH-PAYLOAD', `the business document nests elements ${MAX_DEPTH - 1} levels deep; inside the envelope that is too deep to read`);
    }
    // the sender's own characters where they are the same XML, so the receiver gets the very bytes
    const serialised = root.toString({ format: false });
    return verbatimElement(document, qualifiedName(root), 0, () => canonicalOfRoot(doc, () => serialised), serialised) ?? serialised;
  });
}
