/**
 * The XML plumbing of the envelope: untrusted text goes through the validation engine's hardened
 * parseUntrusted (size, element-count and depth limits, any DOCTYPE refused in whatever encoding,
 * NONET, NO_XXE); an element leaves as a
 * standalone document serialised by libxml2 itself, never by string surgery on the input.
 */
import type { XmlDocument, XmlElement } from '../../../platform/xml/index.ts';
import { parseUntrusted } from '../../../platform/xml/index.ts';
import { SbdhError, type SbdhErrorCode } from './sbdh-model.ts';

const UNSAFE = new Set(['XML-DOCTYPE', 'XML-TOO-LARGE', 'XML-TOO-MANY-ELEMENTS', 'XML-TOO-MANY-ATTRIBUTES', 'XML-TOO-MANY-NAMESPACES', 'XML-TOO-DEEP']);

/**
 * Parses untrusted XML and runs `use` on it; the libxml2 document is always disposed. A refusal of
 * the parser becomes an SbdhError: `malformed` for broken XML, SBDH-UNSAFE for the rest (the
 * payload side passes SBDH-PAYLOAD for both). `use` also gets the text parsed (decoded, no BOM).
 */
export function withParsed<T>(xml: string | Uint8Array, malformed: SbdhErrorCode, what: string, use: (doc: XmlDocument, text: string) => T): T {
  const result = parseUntrusted(xml);
  if (!result.ok) {
    const { rule, message } = result.finding;
    const code = malformed === 'SBDH-PAYLOAD' || !UNSAFE.has(rule) ? malformed : 'SBDH-UNSAFE';
    throw new SbdhError(code, `${what}: ${rule}: ${message}`);
  }
  try {
    return use(result.parsed.doc, result.parsed.text);
  } finally {
    result.parsed.doc.dispose();
  }
}

/** What every document we hand on starts with: the prolog cannot travel inside an envelope. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

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
  return `${XML_DECLARATION}${element.toString({ format: false })}\n`;
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

const C14N = { withComments: true };

/**
 * The root element's C14N (comments kept). With nothing beside the root (no comment or processing
 * instruction outside it), the document's C14N is exactly its root element's, and libxml2-wasm
 * computes it without calling back into JavaScript for every node, as a subtree's C14N does (ten
 * times faster on a small UBL).
 */
function canonicalRoot(doc: XmlDocument): string {
  const root = doc.root;
  return root.prev === null && root.next === null ? doc.canonicalizeToString(C14N) : root.canonicalizeToString(C14N);
}

/** The same XML, as C14N (comments kept) of its root element says; null for text the hardened parser refuses. */
export function canonicalOf(xml: string): string | null {
  const result = parseUntrusted(xml);
  if (!result.ok) return null;
  try {
    return canonicalRoot(result.parsed.doc);
  } finally {
    result.parsed.doc.dispose();
  }
}

/**
 * The canonical form of a parsed document's root element, as canonicalOf would give for libxml2's
 * serialisation of it (`serialised`), without parsing that again when the document's own C14N is
 * cheap: a root element has no ancestor whose namespaces or xml:* attributes it could lean on, and
 * libxml2's serialisation reads back as the same XML.
 */
export function canonicalOfRoot(doc: XmlDocument, serialised: () => string): string | null {
  const root = doc.root;
  return root.prev === null && root.next === null ? doc.canonicalizeToString(C14N) : canonicalOf(serialised());
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The element `qname` exactly as it is written in `text` (from its first start tag at or after
 * `from` to its last end tag), when those characters alone are the same XML as the element:
 * their C14N is `want()` (the element's, as canonicalOf gives it for libxml2's standalone
 * serialisation of it); null otherwise (then the caller keeps that serialisation). The search is
 * plain text, so it can only find a candidate; the parser and C14N decide whether it is the
 * element, so nothing is ever trusted on the strength of string matching. When the candidate is
 * `serialised` itself (libxml2's standalone serialisation, without the XML declaration), it is
 * that serialisation, the same XML by definition: no parse is needed to say so. Every document
 * this service writes reads back to its own characters, so its envelopes take that path.
 */
export function verbatimElement(text: string, qname: string, from: number, want: () => string | null, serialised?: string): string | null {
  const name = escapeRegExp(qname);
  const start = new RegExp(`<${name}[\\s/>]`, 'g');
  start.lastIndex = from;
  const opened = start.exec(text);
  if (!opened) return null;
  const closes = [...text.slice(opened.index).matchAll(new RegExp(`</${name}\\s*>`, 'g'))];
  const last = closes[closes.length - 1];
  if (!last || last.index === undefined) return null;
  const candidate = text.slice(opened.index, opened.index + last.index + last[0].length);
  if (candidate === serialised) return candidate;
  const canonical = want();
  return canonical !== null && canonicalOf(candidate) === canonical ? candidate : null;
}

/** Where the first end tag of `qname` in `text` ends; null when there is none. */
export function afterEndTag(text: string, qname: string): number | null {
  const found = new RegExp(`</${escapeRegExp(qname)}\\s*>`).exec(text);
  return found ? found.index + found[0].length : null;
}

/** An element's name as written: `prefix:local`, or `local` in the default namespace. */
export const qualifiedName = (element: XmlElement): string => (element.prefix ? `${element.prefix}:${element.name}` : element.name);
