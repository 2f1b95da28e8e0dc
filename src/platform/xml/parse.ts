// The one XML parser of the service (src/platform/xml/README.md). Safe reading of untrusted XML: size, element,
// attribute, namespace and depth bounds, no DTD at all (so no entity expansion and no external
// entities), no network. Every check runs on the decoded text, which is exactly what the parser then
// reads. A refusal is a finding, never an exception. Trusted files of the validation artifacts (XSD,
// Schematron) are read by parseTrusted: no network, no entity expansion, but a DTD is allowed.
import { ParseOption, XmlDocument, XmlParseError } from 'libxml2-wasm';
import { MAX_ATTRIBUTES, MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_ELEMENTS, MAX_NAMESPACE_DECLARATIONS, MAX_TEXT_RUN_BYTES } from './limits.ts';
import { asUtf8Declaration, decodeXmlBytes } from './encoding.ts';
import type { DocumentType, Finding } from '../validation/types.ts';

const NS_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const NS_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

// NO_XXE and NONET even though a DOCTYPE is refused before parsing: defence in depth.
const PARSE_OPTIONS = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE;

export interface ParsedXml {
  /** The document as text (decoded, BOM removed, declared as UTF-8), for the XSLT engine. */
  text: string;
  doc: XmlDocument;
  documentType: DocumentType | null;
}

export type SafeParseResult = { ok: true; parsed: ParsedXml } | { ok: false; finding: Finding };

function refusal(rule: string, message: string, location = ''): Finding {
  return { rule, flag: 'fatal', location, message, source: 'xsd' };
}

/**
 * Finds a DOCTYPE in the prolog. A DOCTYPE can only legally appear before the root element, so scanning
 * the prolog (declaration, comments, processing instructions, whitespace) is enough.
 */
export function hasDoctype(text: string): boolean {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return false;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return false;
      i = end + 3;
    } else {
      return /^<!DOCTYPE/i.test(text.slice(i, i + 9));
    }
  }
}

/**
 * An upper bound of the element count, without parsing: every element has exactly one start tag, and
 * a `<` not followed by `/`, `!` or `?` is one (or markup-like text in a comment or CDATA section,
 * which only makes the bound stricter). Stops counting past `limit`.
 */
export function countStartTags(text: string, limit: number): number {
  let count = 0;
  for (let i = text.indexOf('<'); i >= 0 && count <= limit; i = text.indexOf('<', i + 1)) {
    const next = text.charCodeAt(i + 1);
    if (next !== 0x2f && next !== 0x21 && next !== 0x3f) count++;
  }
  return count;
}

/**
 * An upper bound of the namespace declarations: each is whitespace, `xmlns` or `xmlns:prefix`, then
 * `=` (text that looks the same only makes the bound stricter).
 */
export function countNamespaceDeclarations(text: string): number {
  return text.match(/\sxmlns(?::[^\s=]*)?\s*=/g)?.length ?? 0;
}

/**
 * The longest run of characters without markup (a text node, an attribute value, a comment), in UTF-8
 * bytes, or the first run found longer than `limit`. A run longer than libxml2's own limit would be
 * copied into the parser and refused only after seconds and tens of MB (a 10 MB text node: ~1 s, 55 MB).
 */
export function longestTextRun(text: string, limit: number): number {
  let longest = 0;
  let from = 0;
  for (;;) {
    const lt = text.indexOf('<', from);
    const end = lt < 0 ? text.length : lt;
    const chars = end - from;
    // a UTF-8 character is 1 to 3 bytes per UTF-16 code unit: count bytes only where it matters
    if (chars > longest && chars * 3 > limit) {
      const bytes = chars > limit ? chars : Buffer.byteLength(text.slice(from, end));
      if (bytes > limit) return bytes;
      longest = Math.max(longest, bytes);
    } else if (chars > longest) longest = chars;
    if (lt < 0) return longest;
    from = lt + 1;
  }
}

const XINCLUDE_NAMESPACES = ['http://www.w3.org/2001/XInclude', 'http://www.w3.org/2003/XInclude'];

function rootType(doc: XmlDocument): DocumentType | null {
  const root = doc.root;
  if (root.name === 'Invoice' && root.namespaceUri === NS_INVOICE) return 'Invoice';
  if (root.name === 'CreditNote' && root.namespaceUri === NS_CREDIT_NOTE) return 'CreditNote';
  return null;
}

/** Parses untrusted XML. The caller owns `parsed.doc` and must dispose it. */
export function parseUntrusted(input: string | Uint8Array): SafeParseResult {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (size > MAX_DOCUMENT_BYTES) {
    return { ok: false, finding: refusal('XML-TOO-LARGE', `Document is ${size} bytes; the limit is ${MAX_DOCUMENT_BYTES}.`) };
  }
  const decoded = decodeXmlBytes(input);
  if (!decoded.ok) return { ok: false, finding: refusal(decoded.rule, decoded.message) };
  // XML 1.0 has no NUL character; NULs in decoded text mean a UTF-16/32 document without a signature.
  if (decoded.text.includes('\u0000')) {
    return { ok: false, finding: refusal('XML-MALFORMED', 'Not well-formed XML: the text contains NUL characters (a UTF-16 or UTF-32 document without a byte order mark or XML declaration?).') };
  }
  const text = asUtf8Declaration(decoded.text);
  if (hasDoctype(text)) return { ok: false, finding: doctypeRefusal() };
  const elements = countStartTags(text, MAX_ELEMENTS);
  if (elements > MAX_ELEMENTS) {
    return { ok: false, finding: refusal('XML-TOO-MANY-ELEMENTS', `Document has more than ${MAX_ELEMENTS} elements; the limit is ${MAX_ELEMENTS}.`) };
  }
  if (countNamespaceDeclarations(text) > MAX_NAMESPACE_DECLARATIONS) {
    return { ok: false, finding: refusal('XML-TOO-MANY-NAMESPACES', `Document has more than ${MAX_NAMESPACE_DECLARATIONS} namespace declarations; the limit is ${MAX_NAMESPACE_DECLARATIONS}.`) };
  }
  const run = longestTextRun(text, MAX_TEXT_RUN_BYTES);
  if (run > MAX_TEXT_RUN_BYTES) {
    return { ok: false, finding: refusal('XML-TOO-LARGE', `Document has a text node or attribute value of more than ${MAX_TEXT_RUN_BYTES} bytes; the limit is ${MAX_TEXT_RUN_BYTES}.`) };
  }
  let doc: XmlDocument;
  try {
    // encoding 'utf-8': libxml2 reads the very text checked above and never guesses another encoding
    doc = XmlDocument.fromString(text, { option: PARSE_OPTIONS, encoding: 'utf-8' });
  } catch (err) {
    const detail = err instanceof XmlParseError ? err.details[0] : undefined;
    const message = detail?.message.trim() ?? (err instanceof Error ? err.message : String(err));
    return { ok: false, finding: refusal('XML-MALFORMED', `Not well-formed XML: ${message}`, detail ? `${detail.line}:${detail.col}` : '') };
  }
  // Defence in depth: should a DOCTYPE ever get past the scan above, nothing of it leaves this function.
  if (doc.dtd !== null) {
    doc.dispose();
    return { ok: false, finding: doctypeRefusal() };
  }
  // libxml2 never processes XInclude here (no XINCLUDE option), but an include element has no place in
  // any document the service reads: refused, so nothing downstream can ever resolve it
  if (XINCLUDE_NAMESPACES.some((ns) => text.includes(ns)) && doc.eval(`boolean(//*[${XINCLUDE_NAMESPACES.map((ns) => `namespace-uri()='${ns}'`).join(' or ')}])`) === true) {
    doc.dispose();
    return { ok: false, finding: refusal('XML-XINCLUDE', 'XInclude elements are not accepted: documents are read as sent, nothing is included.') };
  }
  if ((doc.eval('count(//@*)') as number) > MAX_ATTRIBUTES) {
    doc.dispose();
    return { ok: false, finding: refusal('XML-TOO-MANY-ATTRIBUTES', `Document has more than ${MAX_ATTRIBUTES} attributes; the limit is ${MAX_ATTRIBUTES}.`) };
  }
  if (nestsAtLeast(doc, MAX_DEPTH)) {
    doc.dispose();
    return { ok: false, finding: refusal('XML-TOO-DEEP', `Elements are nested deeper than ${MAX_DEPTH} levels.`) };
  }
  return { ok: true, parsed: { text, doc, documentType: rootType(doc) } };
}

/**
 * Whether an element sits at `depth` or deeper (the root element is at depth 1): one sits deeper
 * exactly when one sits at `depth` itself, which `depth` child steps from the document find, each
 * step looking only one level further down (//*[ancestor::*[depth-1]] collected every element's
 * ancestors: two to three times the CPU on a small UBL, for each of a SAPI send's dozen parses).
 */
export function nestsAtLeast(doc: XmlDocument, depth: number): boolean {
  return doc.eval(`boolean(${'/*'.repeat(depth)})`) === true;
}

function doctypeRefusal(): Finding {
  return refusal('XML-DOCTYPE', 'Document type declarations (DTDs, entities) are not accepted in UBL documents.');
}

/**
 * Parses XML the service ships or writes itself: the validation artifacts (XSD, Schematron) and the
 * documents it has just built (tests read them back). No network, no external entities; `url` is the
 * base for relative references (schema includes are read by the schema reader of ./xsd.ts only).
 * Throws on malformed input. Never give it bytes from outside: that is parseUntrusted's job.
 */
export function parseTrusted(source: string | Uint8Array, url?: string): XmlDocument {
  const options = { option: PARSE_OPTIONS, ...(url === undefined ? {} : { url }) };
  return typeof source === 'string' ? XmlDocument.fromString(source, options) : XmlDocument.fromBuffer(source, options);
}
