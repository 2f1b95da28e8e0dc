// Safe reading of untrusted XML: size and depth bounds, no DTD at all (so no entity expansion and no
// external entities), no network. A refusal is a finding, never an exception.
import { ParseOption, XmlDocument, XmlParseError } from 'libxml2-wasm';
import { MAX_DEPTH, MAX_DOCUMENT_BYTES } from './limits.ts';
import type { DocumentType, Finding } from './types.ts';

const NS_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const NS_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

// NO_XXE and NONET even though a DOCTYPE is refused before parsing: defence in depth.
const PARSE_OPTIONS = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE;

export interface ParsedXml {
  /** The document as text (UTF-8 decoded, BOM removed), for the XSLT engine. */
  text: string;
  doc: XmlDocument;
  documentType: DocumentType | null;
}

export type SafeParseResult = { ok: true; parsed: ParsedXml } | { ok: false; finding: Finding };

function refusal(rule: string, message: string, location = ''): Finding {
  return { rule, flag: 'fatal', location, message, source: 'xsd' };
}

/** Decodes bytes honouring a non-UTF-8 encoding declaration; UBL is nearly always UTF-8. */
export function decodeXml(input: string | Uint8Array): string {
  if (typeof input === 'string') return asUtf8Declaration(input.replace(/^\uFEFF/, ''));
  const head = Buffer.from(input.subarray(0, 200)).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  let text: string;
  try {
    text = new TextDecoder(declared && declared !== 'utf8' ? declared : 'utf-8').decode(input);
  } catch {
    text = new TextDecoder('utf-8').decode(input);
  }
  return asUtf8Declaration(text.replace(/^\uFEFF/, ''));
}

/**
 * Once decoded, the text is Unicode: its declaration must say so, or libxml2 (which reads the string
 * as UTF-8 bytes) would decode it a second time by the declared encoding.
 */
function asUtf8Declaration(text: string): string {
  return text.replace(/^(\s*<\?xml[^>]*encoding\s*=\s*)(["'])[A-Za-z0-9._-]+\2/, '$1$2UTF-8$2');
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
  const text = decodeXml(input);
  if (hasDoctype(text)) {
    return {
      ok: false,
      finding: refusal('XML-DOCTYPE', 'Document type declarations (DTDs, entities) are not accepted in UBL documents.'),
    };
  }
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(text, { option: PARSE_OPTIONS });
  } catch (err) {
    const detail = err instanceof XmlParseError ? err.details[0] : undefined;
    const message = detail?.message.trim() ?? (err instanceof Error ? err.message : String(err));
    return { ok: false, finding: refusal('XML-MALFORMED', `Not well-formed XML: ${message}`, detail ? `${detail.line}:${detail.col}` : '') };
  }
  // ancestor::*[N-1] exists exactly when an element sits at depth >= N.
  if (doc.eval(`boolean(//*[ancestor::*[${MAX_DEPTH - 1}]])`) === true) {
    doc.dispose();
    return { ok: false, finding: refusal('XML-TOO-DEEP', `Elements are nested deeper than ${MAX_DEPTH} levels.`) };
  }
  return { ok: true, parsed: { text, doc, documentType: rootType(doc) } };
}
