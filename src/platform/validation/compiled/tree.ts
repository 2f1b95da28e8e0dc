// The document model of the compiled engine: an XDM tree built once per document by a small parser
// of XML text that libxml2 has already accepted (well-formed, no DTD, decoded). It mirrors the tree
// SaxonJS builds for the same text: CR LF and lone CR become LF first, adjacent text, CDATA and
// character references form one text node, whitespace outside the document element is dropped,
// attribute values are normalised (literal tab and newline -> space, references kept). Anything
// unexpected throws; the caller then lets SaxonJS validate that document instead.

export const enum Kind {
  Element = 1,
  Attribute = 2,
  Text = 3,
  ProcessingInstruction = 7,
  Comment = 8,
  Document = 9,
}

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

export interface ChildIndex {
  byLocal: Map<string, XNode[]>;
  /** Local names used by children of more than one namespace. */
  mixed: Set<string> | null;
}

/** Shared by every node that cannot have children or attributes (frozen: nobody adds to it). */
const NO_NODES: XNode[] = Object.freeze([]) as unknown as XNode[];

/** One node. Fields are short and untyped-by-kind on purpose: millions are created per second. */
export class XNode {
  /** Children in document order (elements, text, comments, PIs); empty for other kinds. */
  readonly ch: XNode[];
  /** Attributes in source order (elements only). */
  readonly at: XNode[];
  /** Document order; attributes follow their element, before its children. */
  o = 0;
  /** Largest order number within this node's subtree (itself when a leaf). */
  e = 0;
  /** Cached string value (elements, documents). */
  sv: string | null = null;
  /** Lazily built index of element children by local name (see childrenNamed in runtime.ts). */
  ci: ChildIndex | null = null;
  /** Cached typed value (an Untyped of the string value), set by the runtime. */
  tv: unknown = null;
  /** Cached `[this]`: the result of a child lookup that finds just this node, without allocating. */
  one: XNode[] | null = null;
  constructor(
    readonly k: Kind,
    /** Local name (element, attribute), PI target, '' otherwise. */
    readonly n: string,
    /** Namespace URI, '' for none. */
    readonly u: string,
    /** Prefix as written in the document, '' for none. */
    readonly p: string,
    readonly parent: XNode | null,
    /** Text of text, attribute, comment and PI nodes. */
    readonly v: string,
  ) {
    this.ch = k === Kind.Element || k === Kind.Document ? [] : NO_NODES;
    this.at = k === Kind.Element ? [] : NO_NODES;
  }
}

export interface XDocument {
  root: XNode;
  /** Every element by local name, in document order (built while parsing). */
  byLocal: Map<string, XNode[]>;
  /** Every element in document order. */
  elements: XNode[];
  /** Lazily built: elements by namespace and local name. */
  byName: Map<string, XNode[]>;
  /** Lazily built: attributes by local name, in document order. */
  attrsByLocal: Map<string, XNode[]> | null;
}

export class XmlTreeError extends Error {}

function fail(msg: string): never {
  throw new XmlTreeError(msg);
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Replaces references in text; `attr` also turns literal tab/newline into spaces. */
function decode(s: string, attr: boolean): string {
  if (attr) s = s.replace(/[\t\n]/g, ' ');
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) fail('bare & in text');
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const e = ENTITIES[ref];
    if (e === undefined) fail(`unknown entity ${m}`);
    return e;
  });
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * Names as V8 keeps its string literals (internalized): the generated rule code compares node names
 * with literals, and two internalized strings compare by identity. Bounded, so that documents with
 * ever new names cannot grow it: past the bound a name is used as sliced (same value, slower compare).
 */
const NAMES = new Map<string, string>();
const MAX_NAMES = 20_000;

function internalized(s: string): string {
  const known = NAMES.get(s);
  if (known !== undefined) return known;
  // a property key is internalized; Object.keys hands back that very string
  const name = Object.keys({ [s]: 0 })[0] ?? s;
  if (NAMES.size < MAX_NAMES) NAMES.set(name, name);
  return name;
}

/** Prefix and local name of a lexical QName, both internalized (cached with the QName). */
const QNAMES = new Map<string, readonly [string, string]>();

function splitQName(qname: string): readonly [string, string] {
  let split = QNAMES.get(qname);
  if (split === undefined) {
    const colon = qname.indexOf(':');
    split = [colon < 0 ? '' : internalized(qname.slice(0, colon)), internalized(colon < 0 ? qname : qname.slice(colon + 1))];
    if (QNAMES.size < MAX_NAMES) QNAMES.set(internalized(qname), split);
  }
  return split;
}

interface OpenElement {
  node: XNode;
  /** Namespace bindings in scope (shared with the parent when the element declares none). */
  ns: Map<string, string>;
  text: string;
  /** The start tag's QName, which the end tag must repeat. */
  qname: string;
}

/** Parses XML text into a tree. Throws XmlTreeError on anything it does not handle. */
export function parseXml(input: string): XDocument {
  const s = input.indexOf('\r') >= 0 ? input.replace(/\r\n?/g, '\n') : input;
  const doc = new XNode(Kind.Document, '', '', '', null, '');
  const byLocal = new Map<string, XNode[]>();
  const elements: XNode[] = [];
  let order = 0;
  const rootNs = new Map<string, string>([['xml', XML_NS]]);
  const stack: OpenElement[] = [{ node: doc, ns: rootNs, text: '', qname: '' }];
  let top = stack[0] as OpenElement;
  let i = s.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = s.length;
  let sawRoot = false;

  const flushText = (): void => {
    if (top.text === '') return;
    if (top.node.k === Kind.Document) {
      if (/[^ \t\n]/.test(top.text)) fail('text outside the document element');
    } else {
      const t = new XNode(Kind.Text, '', '', '', top.node, top.text);
      t.o = t.e = ++order;
      top.node.ch.push(t);
    }
    top.text = '';
  };

  while (i < n) {
    const lt = s.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) top.text += decode(s.slice(i, end), false);
    if (lt < 0) break;
    i = lt;
    const c1 = s.charCodeAt(i + 1);
    if (c1 === 33 /* ! */) {
      if (s.startsWith('<!--', i)) {
        const close = s.indexOf('-->', i + 4);
        if (close < 0) fail('unterminated comment');
        flushText();
        if (top.node.k !== Kind.Document) {
          const c = new XNode(Kind.Comment, '', '', '', top.node, s.slice(i + 4, close));
          c.o = c.e = ++order;
          top.node.ch.push(c);
        } else {
          const c = new XNode(Kind.Comment, '', '', '', doc, s.slice(i + 4, close));
          c.o = c.e = ++order;
          doc.ch.push(c);
        }
        i = close + 3;
      } else if (s.startsWith('<![CDATA[', i)) {
        const close = s.indexOf(']]>', i + 9);
        if (close < 0) fail('unterminated CDATA');
        if (top.node.k === Kind.Document) fail('CDATA outside the document element');
        top.text += s.slice(i + 9, close);
        i = close + 3;
      } else fail('DOCTYPE or unknown markup');
    } else if (c1 === 63 /* ? */) {
      const close = s.indexOf('?>', i + 2);
      if (close < 0) fail('unterminated processing instruction');
      const body = s.slice(i + 2, close);
      const m = /^([^\s]+)\s*([\s\S]*)$/.exec(body);
      if (!m) fail('bad processing instruction');
      const target = m[1] ?? '';
      if (target.toLowerCase() === 'xml') {
        if (i !== 0 && !(i === 1 && s.charCodeAt(0) === 0xfeff)) fail('misplaced XML declaration');
        if (/version\s*=\s*["']1\.1/.test(body)) fail('XML 1.1');
      } else {
        flushText();
        const pi = new XNode(Kind.ProcessingInstruction, target, '', '', top.node, m[2] ?? '');
        pi.o = pi.e = ++order;
        top.node.ch.push(pi);
      }
      i = close + 2;
    } else if (c1 === 47 /* / */) {
      const close = s.indexOf('>', i + 2);
      if (close < 0) fail('unterminated end tag');
      flushText();
      const node = top.node;
      const qname = s.slice(i + 2, close).trim();
      if (qname !== top.qname) fail(`end tag ${qname} does not match ${top.qname}`);
      node.e = order;
      stack.pop();
      top = stack[stack.length - 1] ?? fail('end tag without start tag');
      i = close + 1;
    } else {
      // start tag
      flushText();
      if (top.node.k === Kind.Document && sawRoot) fail('two document elements');
      let j = i + 1;
      while (j < n && !isSpace(s.charCodeAt(j)) && s.charCodeAt(j) !== 62 && s.charCodeAt(j) !== 47) j++;
      const qname = s.slice(i + 1, j);
      const rawAttrs: [string, string][] = [];
      let ns = top.ns;
      let copied = false;
      for (;;) {
        while (j < n && isSpace(s.charCodeAt(j))) j++;
        const c = s.charCodeAt(j);
        if (c === 62 || c === 47) break;
        if (j >= n) fail('unterminated start tag');
        const eq = s.indexOf('=', j);
        if (eq < 0) fail('attribute without value');
        const name = s.slice(j, eq).trim();
        let q = eq + 1;
        while (q < n && isSpace(s.charCodeAt(q))) q++;
        const quote = s[q];
        if (quote !== '"' && quote !== "'") fail('unquoted attribute');
        const closeQ = s.indexOf(quote, q + 1);
        if (closeQ < 0) fail('unterminated attribute');
        const value = decode(s.slice(q + 1, closeQ), true);
        if (name === 'xmlns' || name.startsWith('xmlns:')) {
          if (!copied) {
            ns = new Map(ns);
            copied = true;
          }
          ns.set(name === 'xmlns' ? '' : name.slice(6), internalized(value));
        } else rawAttrs.push([name, value]);
        j = closeQ + 1;
      }
      const selfClosing = s.charCodeAt(j) === 47;
      if (selfClosing && s.charCodeAt(j + 1) !== 62) fail('bad empty-element tag');
      const [prefix, local] = splitQName(qname);
      const uri = ns.get(prefix) ?? (prefix === '' ? '' : fail(`undeclared prefix ${prefix}`));
      const el = new XNode(Kind.Element, local, uri, prefix, top.node, '');
      el.o = ++order;
      top.node.ch.push(el);
      elements.push(el);
      const list = byLocal.get(local);
      if (list) list.push(el);
      else byLocal.set(local, [el]);
      for (const [name, value] of rawAttrs) {
        const [ap, al] = splitQName(name);
        const au = ap === '' ? '' : (ns.get(ap) ?? fail(`undeclared prefix ${ap}`));
        for (const other of el.at) if (other.n === al && other.u === au) fail('duplicate attribute');
        const a = new XNode(Kind.Attribute, al, au, ap, el, value);
        a.o = a.e = ++order;
        el.at.push(a);
      }
      if (top.node.k === Kind.Document) sawRoot = true;
      if (selfClosing) {
        el.e = order;
        i = j + 2;
      } else {
        top = { node: el, ns, text: '', qname };
        stack.push(top);
        i = j + 1;
      }
    }
  }
  flushText();
  if (stack.length !== 1 || !sawRoot) fail('document is not complete');
  doc.e = order;
  const parsed: XDocument = { root: doc, byLocal, elements, byName: new Map(), attrsByLocal: null };
  parsedDocuments.set(doc, parsed);
  return parsed;
}

/** The parsed document of each document node (trees the runtime builds itself have none). */
const parsedDocuments = new WeakMap<XNode, XDocument>();

/**
 * Whether no element of the tree of every node in `s` has this local name, by the parser's index: a
 * child step to a name the document does not use (CEN's syntax rule asks every invoice line for ~100
 * elements UBL allows but EN 16931 does not) then costs a walk to the root, not a look at every child.
 */
export function nameAbsent(s: readonly XNode[], local: string): boolean {
  let root: XNode | null = null;
  for (let k = 0; k < s.length; k++) {
    let r = s[k] as XNode;
    while (r.parent !== null) r = r.parent;
    if (root === null) root = r;
    else if (r !== root) return false;
  }
  const parsed = root === null ? undefined : parsedDocuments.get(root);
  return parsed !== undefined && !parsed.byLocal.has(local);
}

/** String value: text of a text/attribute node, concatenated descendant text of an element/document. */
export function stringValue(node: XNode): string {
  if (node.k === Kind.Element || node.k === Kind.Document) {
    if (node.sv !== null) return node.sv;
    const ch = node.ch;
    // a leaf element with one text node (most of an invoice) is that text, without concatenating
    const out = ch.length === 1 && (ch[0] as XNode).k === Kind.Text ? (ch[0] as XNode).v : descendantText(node, '');
    node.sv = out;
    return out;
  }
  return node.v;
}

function descendantText(x: XNode, out: string): string {
  const ch = x.ch;
  for (let k = 0; k < ch.length; k++) {
    const c = ch[k] as XNode;
    if (c.k === Kind.Text) out += c.v;
    else if (c.k === Kind.Element) out = c.sv !== null ? out + c.sv : descendantText(c, out);
  }
  return out;
}

/** The lexical QName (`name()`). */
export function nodeName(node: XNode): string {
  if (node.k === Kind.Element || node.k === Kind.Attribute) return node.p === '' ? node.n : `${node.p}:${node.n}`;
  if (node.k === Kind.ProcessingInstruction) return node.n;
  return '';
}

/** The root of the tree (the document node). */
export function rootOf(node: XNode): XNode {
  let r = node;
  while (r.parent) r = r.parent;
  return r;
}

/** Elements with this namespace and local name, in document order. */
export function elementsNamed(doc: XDocument, uri: string, local: string): XNode[] {
  const key = `${uri}\u0000${local}`;
  let list = doc.byName.get(key);
  if (!list) {
    const all = doc.byLocal.get(local) ?? [];
    list = all.every((e) => e.u === uri) ? all : all.filter((e) => e.u === uri);
    doc.byName.set(key, list);
  }
  return list;
}

/** Attributes with this local name, in document order. */
export function attributesNamed(doc: XDocument, local: string): XNode[] {
  if (!doc.attrsByLocal) {
    const map = new Map<string, XNode[]>();
    for (const el of doc.elements) {
      for (const a of el.at) {
        const list = map.get(a.n);
        if (list) list.push(a);
        else map.set(a.n, [a]);
      }
    }
    doc.attrsByLocal = map;
  }
  return doc.attrsByLocal.get(local) ?? [];
}

/** Location as the engine reports it: `/Invoice[1]/cac:Party[2]/@schemeID`. */
export function locationPath(node: XNode): string {
  const parts: string[] = [];
  for (let n: XNode | null = node; n && n.parent; n = n.parent) {
    if (n.k === Kind.Attribute) parts.push(`@${nodeName(n)}`);
    else if (n.k === Kind.Element) {
      let pos = 1;
      for (const sib of n.parent.ch) {
        if (sib === n) break;
        if (sib.k === Kind.Element && sib.n === n.n && sib.u === n.u) pos++;
      }
      parts.push(`${nodeName(n)}[${pos}]`);
    } else parts.push('node()');
  }
  return `/${parts.reverse().join('/')}`;
}
