// A TDD (or any XML) as its leaf fields, for field-by-field comparison: `path → value [attributes]`.
import { XmlElement, type XmlDocument, type XmlNode } from '../../../src/platform/xml/index.ts';
import { parseUntrusted } from '../../../src/platform/xml/index.ts';
import { TDD_XPATH_NS } from '../../../src/modules/delivery/fs/tax-data-document/names.ts';

export type Fields = Map<string, string>;

const PREFIX = new Map(Object.entries(TDD_XPATH_NS).map(([prefix, uri]) => [uri, prefix]));

/** The element's name with our prefix for its namespace, whatever prefix the document used. */
function qname(el: XmlElement): string {
  const prefix = PREFIX.get(el.namespaceUri);
  return prefix ? `${prefix}:${el.name}` : `{${el.namespaceUri}}${el.name}`;
}

function childElements(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n = el.firstChild; n; n = n.next) if (n instanceof XmlElement) out.push(n);
  return out;
}

function collect(el: XmlElement, at: string, out: Fields): void {
  const children = childElements(el);
  if (children.length === 0) {
    const attrs = el.attrs.map((a) => `@${a.name}=${a.value}`).sort().join(' ');
    out.set(at, `${el.content.trim()}${attrs ? ` [${attrs}]` : ''}`);
    return;
  }
  const seen = new Map<string, number>();
  for (const child of children) {
    const name = qname(child);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    collect(child, `${at}/${name}[${n}]`, out);
  }
}

/** The leaf fields below the element at `xpath` (TDD prefixes pxs, cac, cbc), paths relative to it. */
export function fieldsOf(xml: string | Uint8Array, xpath: string): Fields {
  const parsed = parseUntrusted(xml);
  if (!parsed.ok) throw new Error(parsed.finding.message);
  try {
    const found: XmlNode | null = parsed.parsed.doc.get(xpath, TDD_XPATH_NS);
    if (!(found instanceof XmlElement)) throw new Error(`${xpath} not found`);
    const out: Fields = new Map();
    collect(found, '', out);
    return out;
  } finally {
    parsed.parsed.doc.dispose();
  }
}

/** The value at an XPath (TDD prefixes), or null. */
export function valueAt(xml: string | Uint8Array, xpath: string): string | null {
  const parsed = parseUntrusted(xml);
  if (!parsed.ok) throw new Error(parsed.finding.message);
  try {
    return parsed.parsed.doc.get(xpath, TDD_XPATH_NS)?.content.trim() ?? null;
  } finally {
    parsed.parsed.doc.dispose();
  }
}

export interface Query {
  s(xpath: string): string;
  n(xpath: string): number;
  /** The trimmed values of every node the XPath selects. */
  all(xpath: string): string[];
  /** The names (our prefixes) of every element the XPath selects. */
  names(xpath: string): string[];
}

/** XPath 1.0 (libxml2) over a TDD, prefixes pxs, cac, cbc. */
export function query(xml: string | Uint8Array): Query {
  const within = <T>(use: (doc: XmlDocument) => T): T => {
    const parsed = parseUntrusted(xml);
    if (!parsed.ok) throw new Error(parsed.finding.message);
    try {
      return use(parsed.parsed.doc);
    } finally {
      parsed.parsed.doc.dispose();
    }
  };
  return {
    s: (xpath) => within((doc) => String(doc.eval(`string(${xpath})`, TDD_XPATH_NS))),
    n: (xpath) => within((doc) => Number(doc.eval(`count(${xpath})`, TDD_XPATH_NS))),
    all: (xpath) => within((doc) => doc.find(xpath, TDD_XPATH_NS).map((n) => n.content.trim())),
    names: (xpath) => within((doc) => doc.find(xpath, TDD_XPATH_NS).flatMap((n) => (n instanceof XmlElement ? [qname(n)] : []))),
  };
}
