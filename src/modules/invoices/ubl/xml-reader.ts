/**
 * Reading a parsed UBL document by namespace-aware XPath (libxml2). Untrusted input goes through the
 * validation engine's `parseUntrusted`, the same hardened entry the validator uses: a size limit, the
 * encoding detected and decoded first, any DOCTYPE refused before parsing (so no DTD, no entity
 * expansion, no external entities), element, attribute and namespace limits, NONET and NO_XXE, and a
 * depth limit.
 */
import type { XmlElement, XmlNode } from '../../../platform/xml/index.ts';
import { allAt, firstAt, parseUntrusted, type ParsedXml } from '../../../platform/xml/index.ts';
import type { DocumentType } from '../../../platform/validation/types.ts';
import { NS, XPATH_NS } from './ubl-names.ts';

/** A document the reader cannot read: not XML, unsafe, not a UBL Invoice/CreditNote, or unsupported content. */
export class UblReadError extends Error {
  constructor(
    /**
     * XML-DOCTYPE, XML-MALFORMED, XML-ENCODING-UNSUPPORTED, XML-TOO-LARGE, XML-TOO-MANY-ELEMENTS,
     * XML-TOO-MANY-ATTRIBUTES, XML-TOO-MANY-NAMESPACES, XML-TOO-DEEP, XML-XINCLUDE, XML-NOT-UBL, UBL-UNSUPPORTED or
     * UBL-BAD-NUMBER
     */
    readonly rule: string,
    message: string,
  ) {
    super(message);
    this.name = 'UblReadError';
  }
}

/** Parses untrusted XML and runs `read` on it; the libxml2 document is always disposed. */
export function withUblDocument<T>(xml: string | Uint8Array, read: (parsed: ParsedXml) => T): T {
  const result = parseUntrusted(xml);
  if (!result.ok) throw new UblReadError(result.finding.rule, result.finding.message);
  try {
    return readingUbl(result.parsed.documentType, () => read(result.parsed));
  } finally {
    result.parsed.doc.dispose();
  }
}

/** Runs `read` on a document of `documentType` (null: not UBL), with the refusals of withUblDocument. */
export function readingUbl<T>(documentType: DocumentType | null, read: () => T): T {
  if (documentType === null) throw new UblReadError('XML-NOT-UBL', 'The root element is not a UBL 2.1 Invoice or CreditNote.');
  try {
    return read();
  } catch (err) {
    // a quantity or amount that is not a number (the XSD would say so too) is the document's fault
    if (err instanceof RangeError) throw new UblReadError('UBL-BAD-NUMBER', err.message);
    throw err;
  }
}

/** Which UBL document an element is the root of, as parseUntrusted says of a document's root. */
export function ublDocumentType(root: XmlElement): DocumentType | null {
  if (root.name === 'Invoice' && root.namespaceUri === NS.invoice) return 'Invoice';
  if (root.name === 'CreditNote' && root.namespaceUri === NS.creditNote) return 'CreditNote';
  return null;
}

/** The trimmed text at `xpath` (relative to `node`), or null when absent or blank. */
export function text(node: XmlNode, xpath: string): string | null {
  const found = firstAt(node, xpath, XPATH_NS);
  if (found === null) return null;
  const value = found.content.trim();
  return value === '' ? null : value;
}

export function nodes(node: XmlNode, xpath: string): XmlNode[] {
  return allAt(node, xpath, XPATH_NS);
}

export function node(parent: XmlNode, xpath: string): XmlNode | null {
  return firstAt(parent, xpath, XPATH_NS);
}
