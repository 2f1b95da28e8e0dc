/**
 * The XML plumbing of the envelope: untrusted text goes through the validation engine's hardened
 * parseUntrusted (size, element-count and depth limits, any DOCTYPE refused in whatever encoding,
 * NONET, NO_XXE); an element leaves as a
 * standalone document serialised by libxml2 itself, never by string surgery on the input.
 */
import type { XmlDocument, XmlElement } from 'libxml2-wasm';
import { parseUntrusted } from '../../validation/safe-xml.ts';
import { SbdhError, type SbdhErrorCode } from './sbdh-model.ts';

const UNSAFE = new Set(['XML-DOCTYPE', 'XML-TOO-LARGE', 'XML-TOO-MANY-ELEMENTS', 'XML-TOO-MANY-ATTRIBUTES', 'XML-TOO-MANY-NAMESPACES', 'XML-TOO-DEEP']);

/**
 * Parses untrusted XML and runs `use` on it; the libxml2 document is always disposed. A refusal of
 * the parser becomes an SbdhError: `malformed` for broken XML, SBDH-UNSAFE for the rest (the
 * payload side passes SBDH-PAYLOAD for both).
 */
export function withParsed<T>(xml: string | Uint8Array, malformed: SbdhErrorCode, what: string, use: (doc: XmlDocument) => T): T {
  const result = parseUntrusted(xml);
  if (!result.ok) {
    const { rule, message } = result.finding;
    const code = malformed === 'SBDH-PAYLOAD' || !UNSAFE.has(rule) ? malformed : 'SBDH-UNSAFE';
    throw new SbdhError(code, `${what}: ${rule}: ${message}`);
  }
  try {
    return use(result.parsed.doc);
  } finally {
    result.parsed.doc.dispose();
  }
}

/**
 * An element as its own document, as the XML it means: every namespace its element and attribute
 * names take from its ancestors is declared on it (the envelope's own, unused ones are not).
 * A prefix used only inside text (a QName value) must be declared within the element.
 * Mutates the element's document, so only call it on a parse you dispose. No reformatting:
 * whitespace in the content is data.
 */
export function standaloneXml(element: XmlElement): string {
  const local = element.nsDeclarations;
  for (const [prefix, uri] of Object.entries(element.namespaces)) {
    if (prefix === 'xml' || prefix in local || !usesInherited(element, prefix, uri)) continue;
    element.addNsDeclaration(uri, prefix === '' ? undefined : prefix);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element.toString({ format: false })}\n`;
}

function usesInherited(element: XmlElement, prefix: string, uri: string): boolean {
  if (prefix === '') {
    // unprefixed elements in the inherited default namespace (rare: UBL roots declare their own)
    const unprefixed = element.find("descendant-or-self::*[not(contains(name(), ':'))]") as XmlElement[];
    return unprefixed.some((e) => e.namespaceUri === uri);
  }
  // a prefix is an NCName (no quotes), safe inside the XPath literal
  return element.eval(`boolean(descendant-or-self::*[starts-with(name(), '${prefix}:')] | descendant-or-self::*/@*[starts-with(name(), '${prefix}:')])`) === true;
}

/** The element children of `parent`, in document order. */
export function childElements(parent: XmlElement): XmlElement[] {
  return parent.find('*') as XmlElement[];
}
