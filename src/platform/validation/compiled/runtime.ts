// Runtime of compiled rule sets: sequences, axes, atomization, the function library. Generated code
// (codegen.ts) calls these through one object. Sequences are arrays; single items travel raw where the
// compiler knows the cardinality. Any dynamic error throws (XPathError or Refusal): the rule set then
// runs in SaxonJS for that document, so error findings keep the reference's wording.
import type { Axis } from './ast.ts';
import { replacementFunction, xpathRegex, xpathRegexGlobal } from './regex.ts';
import { attributesNamed, elementsNamed, Kind, nameAbsent, nodeName, rootOf, stringValue, XNode, type ChildIndex, type XDocument } from './tree.ts';
import {
  arith,
  atomicToString,
  castable,
  castAtomic,
  compareNumeric,
  decCeiling,
  decFloor,
  decRound,
  decRoundHalfEven,
  generalPair,
  int,
  isNumeric,
  negate,
  parseDoubleOrNull,
  Refusal,
  typeName,
  Untyped,
  valuePair,
  XDate,
  XDecimal,
  XDouble,
  XPathError,
  type ArithOp,
  type Atomic,
  type CompareOp,
} from './values.ts';

export type Item = Atomic | XNode;
export type Seq = Item[];
export type NodeTestFn = (n: XNode) => boolean;

const EMPTY: Seq = [];

export function isNode(i: Item): i is XNode {
  return i instanceof XNode;
}

function typeError(msg: string): never {
  throw new XPathError('XPTY0004', msg);
}

// ------------------------------------------------------------ cardinality

export function one<T extends Item>(s: T[]): T {
  if (s.length !== 1) typeError(`a sequence of ${s.length} items where one is required`);
  return s[0] as T;
}

export function opt<T extends Item>(s: T[]): T | null {
  if (s.length > 1) typeError(`a sequence of ${s.length} items where at most one is allowed`);
  return s.length === 0 ? null : (s[0] as T);
}

export function optToSeq(i: Item | null): Seq {
  return i === null ? EMPTY : [i];
}

export function oneNode(i: Item): XNode {
  if (!(i instanceof XNode)) typeError(`${typeName(i)} where a node is required`);
  return i;
}

export function nodes(s: Seq): XNode[] {
  for (const i of s) if (!(i instanceof XNode)) typeError('a path step applied to an atomic value');
  return s as XNode[];
}

// ------------------------------------------------------------ atomization and strings

export function typed(n: XNode): Untyped {
  let u = n.tv as Untyped | null;
  if (u === null) {
    u = new Untyped(stringValue(n));
    n.tv = u;
  }
  return u;
}

export function atom(i: Item): Atomic {
  return i instanceof XNode ? typed(i) : i;
}

export function atomOpt(i: Item | null): Atomic | null {
  return i === null ? null : i instanceof XNode ? typed(i) : i;
}

export function atomize(s: Seq): Atomic[] {
  let out: Atomic[] | null = null;
  for (let k = 0; k < s.length; k++) {
    const i = s[k] as Item;
    if (i instanceof XNode) {
      out ??= s.slice(0, k) as Atomic[];
      out.push(typed(i));
    } else if (out) out.push(i);
  }
  return out ?? (s as Atomic[]);
}

export const sv = stringValue;

/** string(): the string value of a node, the string cast of an atomic, '' for the empty sequence. */
export function str(i: Item | null): string {
  if (i === null) return '';
  return i instanceof XNode ? stringValue(i) : atomicToString(i);
}

/** A `xs:string?` argument: a node or untypedAtomic converts; other types are a type error. Null for empty. */
export function strArg(i: Item | null): string | null {
  if (i === null) return null;
  if (i instanceof XNode) return stringValue(i);
  if (typeof i === 'string') return i;
  if (i instanceof Untyped) return i.s;
  return typeError(`${typeName(i)} where xs:string is required`);
}

export function strArgE(i: Item | null): string {
  return strArg(i) ?? '';
}

/** A required `xs:string` argument. */
export function strArgR(i: Item | null): string {
  const s = strArg(i);
  if (s === null) typeError('empty sequence where xs:string is required');
  return s;
}

/** A `xs:double` argument (function conversion: untypedAtomic casts, numbers promote). */
export function dblArg(i: Item | null): number {
  if (i === null) typeError('empty sequence where xs:double is required');
  const a = atom(i);
  if (typeof a === 'number') return a;
  if (a instanceof XDouble) return a.v;
  if (a instanceof XDecimal) return parseFloat(atomicToString(a));
  if (a instanceof Untyped) {
    const v = parseDoubleOrNull(a.s);
    if (v === null) throw new XPathError('FORG0001', `Cannot convert "${a.s}" to xs:double`);
    return v;
  }
  return typeError(`${typeName(a)} where xs:double is required`);
}

/** A `xs:numeric?` argument: untypedAtomic becomes xs:double. */
export function numArg(i: Item | null): Atomic | null {
  if (i === null) return null;
  const a = atom(i);
  if (a instanceof Untyped) {
    const v = parseDoubleOrNull(a.s);
    if (v === null) throw new XPathError('FORG0001', `Cannot convert "${a.s}" to xs:double`);
    return new XDouble(v);
  }
  if (!isNumeric(a)) typeError(`${typeName(a)} where a number is required`);
  return a;
}

// ------------------------------------------------------------ effective boolean value

export function ebv(s: Seq): boolean {
  if (s.length === 0) return false;
  const first = s[0] as Item;
  if (first instanceof XNode) return true;
  if (s.length > 1) throw new XPathError('FORG0006', 'Effective boolean value is not defined for a sequence of two or more items starting with an atomic value');
  return ebvItem(first);
}

export function ebvItem(i: Item | null): boolean {
  if (i === null) return false;
  if (i instanceof XNode) return true;
  if (typeof i === 'boolean') return i;
  if (typeof i === 'string') return i.length > 0;
  if (i instanceof Untyped) return i.s.length > 0;
  if (typeof i === 'number') return i !== 0;
  if (i instanceof XDouble) return !(i.v === 0 || Number.isNaN(i.v));
  if (i instanceof XDecimal) return i.m !== 0n;
  throw new XPathError('FORG0006', `Effective boolean value is not defined for ${typeName(i)}`);
}

// ------------------------------------------------------------ document order

export function sortDedup(s: XNode[]): XNode[] {
  let sorted = true;
  for (let k = 1; k < s.length; k++) {
    if ((s[k] as XNode).o <= (s[k - 1] as XNode).o) {
      sorted = false;
      break;
    }
  }
  if (sorted) return s;
  const out = [...new Set(s)].sort((a, b) => a.o - b.o);
  return out;
}

// ------------------------------------------------------------ axes

function descendants(n: XNode, out: XNode[]): void {
  for (const c of n.ch) {
    out.push(c);
    if (c.k === Kind.Element) descendants(c, out);
  }
}

function following(n: XNode, out: XNode[]): void {
  let x: XNode | null = n.k === Kind.Attribute ? n.parent : n;
  for (; x && x.parent; x = x.parent) {
    const sibs = x.parent.ch;
    for (let k = sibs.indexOf(x) + 1; k < sibs.length; k++) {
      const s = sibs[k] as XNode;
      out.push(s);
      if (s.k === Kind.Element) descendants(s, out);
    }
  }
  if (n.k === Kind.Attribute && n.parent) {
    // following of an attribute also includes its element's descendants
    const own: XNode[] = [];
    descendants(n.parent, own);
    out.unshift(...own);
  }
}

/** Nodes on an axis, in axis order (reverse document order for reverse axes). */
export function axisNodes(n: XNode, axis: Axis): XNode[] {
  switch (axis) {
    case 'child':
      return n.ch;
    case 'attribute':
      return n.at;
    case 'self':
      return [n];
    case 'parent':
      return n.parent ? [n.parent] : [];
    case 'ancestor': {
      const out: XNode[] = [];
      for (let p = n.parent; p; p = p.parent) out.push(p);
      return out;
    }
    case 'ancestor-or-self': {
      const out: XNode[] = [n];
      for (let p = n.parent; p; p = p.parent) out.push(p);
      return out;
    }
    case 'descendant': {
      const out: XNode[] = [];
      descendants(n, out);
      return out;
    }
    case 'descendant-or-self': {
      const out: XNode[] = [n];
      descendants(n, out);
      return out;
    }
    case 'following-sibling': {
      if (!n.parent || n.k === Kind.Attribute) return [];
      const sibs = n.parent.ch;
      return sibs.slice(sibs.indexOf(n) + 1);
    }
    case 'preceding-sibling': {
      if (!n.parent || n.k === Kind.Attribute) return [];
      const sibs = n.parent.ch;
      return sibs.slice(0, sibs.indexOf(n)).reverse();
    }
    case 'following': {
      const out: XNode[] = [];
      following(n, out);
      return out;
    }
    case 'preceding': {
      // every node before n in document order, except its ancestors (and attributes)
      const root = rootOf(n);
      const all: XNode[] = [];
      descendants(root, all);
      const ancestors = new Set<XNode>();
      for (let p = n.parent; p; p = p.parent) ancestors.add(p);
      const out: XNode[] = [];
      for (const x of all) {
        if (x.o >= n.o) break;
        if (!ancestors.has(x)) out.push(x);
      }
      return out.reverse();
    }
  }
}

export const REVERSE: ReadonlySet<Axis> = new Set(['parent', 'ancestor', 'ancestor-or-self', 'preceding-sibling', 'preceding']);

export type Pred = (c: XNode, p: number, z: number) => boolean;

/** One axis step from one node: test, then predicates in axis order; result in document order. */
export function step(n: XNode, axis: Axis, test: NodeTestFn, preds: Pred[]): XNode[] {
  let s = axisNodes(n, axis).filter(test);
  for (const p of preds) {
    const z = s.length;
    s = s.filter((x, k) => p(x, k + 1, z));
  }
  return REVERSE.has(axis) && s.length > 1 ? s.reverse() : s;
}

/** A step over candidates already in axis order (reverse document order for reverse axes). */
export function stepOn(candidates: XNode[], reverse: boolean, preds: Pred[]): XNode[] {
  let s = candidates;
  for (const p of preds) {
    const z = s.length;
    s = s.filter((x, k) => p(x, k + 1, z));
  }
  return reverse && s.length > 1 ? (s === candidates ? [...s].reverse() : s.reverse()) : s;
}

/** `preceding::name` of an element, from the index: before it, not its ancestors; in axis (reverse) order. */
export function precedingNamed(doc: XDocument, n: XNode, uri: string, local: string): XNode[] {
  if (n.o < 0 || n.k !== Kind.Element) return axisNodes(n, 'preceding').filter(nameTest(uri, local, Kind.Element));
  const all = elementsNamed(doc, uri, local);
  const out: XNode[] = [];
  for (let k = lowerBound(all, n.o) - 1; k >= 0; k--) {
    const x = all[k] as XNode;
    if (x.e < n.o) out.push(x); // an ancestor's subtree contains n
  }
  return out;
}

/** `following::name` of an element, from the index: after its subtree; in document order. */
export function followingNamed(doc: XDocument, n: XNode, uri: string, local: string): XNode[] {
  if (n.o < 0 || n.k !== Kind.Element) return axisNodes(n, 'following').filter(nameTest(uri, local, Kind.Element));
  const all = elementsNamed(doc, uri, local);
  return all.slice(lowerBound(all, n.e + 1));
}

/** A step applied to every node of a sequence. */
export function stepMany(s: XNode[], axis: Axis, test: NodeTestFn, preds: Pred[]): XNode[] {
  if (s.length === 1) return step(s[0] as XNode, axis, test, preds);
  const out: XNode[] = [];
  for (const n of s) for (const x of step(n, axis, test, preds)) out.push(x);
  return sortDedup(out);
}

const NONE: XNode[] = Object.freeze([]) as unknown as XNode[];
export { NONE };

function childIndex(n: XNode): ChildIndex {
  const byLocal = new Map<string, XNode[]>();
  let mixed: Set<string> | null = null;
  for (const c of n.ch) {
    if (c.k !== Kind.Element) continue;
    const list = byLocal.get(c.n);
    if (list) {
      list.push(c);
      if (c.u !== (list[0] as XNode).u) (mixed ??= new Set()).add(c.n);
    } else byLocal.set(c.n, [c]);
  }
  return (n.ci = { byLocal, mixed });
}

/**
 * Element children with a name, from an index built on the node's first lookup (rules ask the same
 * node for many children, and the document element of a 1,000-line invoice has thousands). The
 * returned array is shared: callers never modify it.
 */
export function childrenNamed(n: XNode, uri: string, local: string): XNode[] {
  const ch = n.ch;
  if (ch.length <= 12) {
    // a short scan is cheaper than an index; one match (the usual case) reuses a cached array
    let found: XNode | null = null;
    let many: XNode[] | null = null;
    for (let k = 0; k < ch.length; k++) {
      const c = ch[k] as XNode;
      if (c.n === local && c.k === Kind.Element && c.u === uri) {
        if (found === null) found = c;
        else (many ??= [found]).push(c);
      }
    }
    if (many) return many;
    return found === null ? NONE : (found.one ??= [found]);
  }
  const index = n.ci ?? childIndex(n);
  const list = index.byLocal.get(local);
  if (list === undefined) return NONE;
  if (index.mixed?.has(local)) return list.filter((c) => c.u === uri);
  return (list[0] as XNode).u === uri ? list : NONE;
}

export function hasChildNamed(n: XNode, uri: string, local: string): boolean {
  const ch = n.ch;
  if (ch.length <= 12) {
    for (let k = 0; k < ch.length; k++) {
      const c = ch[k] as XNode;
      if (c.n === local && c.k === Kind.Element && c.u === uri) return true;
    }
    return false;
  }
  return childrenNamed(n, uri, local).length > 0;
}

export function hasChild(n: XNode, test: NodeTestFn): boolean {
  const ch = n.ch;
  for (let k = 0; k < ch.length; k++) if (test(ch[k] as XNode)) return true;
  return false;
}

export function childrenNamedMany(s: XNode[], uri: string, local: string): XNode[] {
  if (s.length === 1) return childrenNamed(s[0] as XNode, uri, local);
  if (s.length > 8 && nameAbsent(s, local)) return NONE;
  const out: XNode[] = [];
  for (const n of s) for (const c of childrenNamed(n, uri, local)) out.push(c);
  return sortDedup(out);
}

export function attribute(n: XNode, uri: string, local: string): XNode | null {
  for (const a of n.at) if (a.n === local && a.u === uri) return a;
  return null;
}

export function attributesMany(s: XNode[], uri: string, local: string): XNode[] {
  const out: XNode[] = [];
  for (const n of s) for (const a of n.at) if (a.n === local && a.u === uri) out.push(a);
  return s.length > 1 ? sortDedup(out) : out;
}

function lowerBound(list: XNode[], order: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as XNode).o < order) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Descendant elements of `n` with a name, from the document's index. */
export function descendantsNamed(doc: XDocument, n: XNode, uri: string, local: string, orSelf: boolean): XNode[] {
  if (n.o < 0) return step(n, orSelf ? 'descendant-or-self' : 'descendant', nameTest(uri, local, Kind.Element), []);
  const all = elementsNamed(doc, uri, local);
  if (n.k === Kind.Document) return all;
  const from = lowerBound(all, orSelf ? n.o : n.o + 1);
  const to = lowerBound(all, n.e + 1);
  return from === 0 && to === all.length ? all : all.slice(from, to);
}

/** Attributes with a name on `n` or its descendants (`E//@name`), from the document's index. */
export function descendantAttributes(doc: XDocument, n: XNode, uri: string, local: string): XNode[] {
  if (n.o < 0) return attributesMany(step(n, 'descendant-or-self', anyNode, []), uri, local);
  const all = attributesNamed(doc, local);
  const from = n.k === Kind.Document ? 0 : lowerBound(all, n.o);
  const to = n.k === Kind.Document ? all.length : lowerBound(all, n.e + 1);
  const out: XNode[] = [];
  for (let k = from; k < to; k++) {
    const a = all[k] as XNode;
    if (a.u === uri) out.push(a);
  }
  return out;
}

export function descendantAttributesMany(doc: XDocument, s: XNode[], uri: string, local: string): XNode[] {
  if (s.length === 1) return descendantAttributes(doc, s[0] as XNode, uri, local);
  const out: XNode[] = [];
  for (const n of s) for (const x of descendantAttributes(doc, n, uri, local)) out.push(x);
  return sortDedup(out);
}

export function descendantsNamedMany(doc: XDocument, s: XNode[], uri: string, local: string, orSelf: boolean): XNode[] {
  if (s.length === 1) return descendantsNamed(doc, s[0] as XNode, uri, local, orSelf);
  const out: XNode[] = [];
  for (const n of s) for (const x of descendantsNamed(doc, n, uri, local, orSelf)) out.push(x);
  return sortDedup(out);
}

export function root(n: XNode): XNode {
  const r = rootOf(n);
  if (r.k !== Kind.Document) throw new XPathError('XPDY0050', 'The root of the tree is not a document node');
  return r;
}

/** A path whose right-hand side is not an axis step: nodes are sorted, atomics kept in order. */
export function mapPath(s: XNode[], f: (c: XNode, p: number, z: number) => Seq): Seq {
  const out: Item[] = [];
  let sawNode = false;
  let sawAtomic = false;
  const z = s.length;
  for (let k = 0; k < z; k++) {
    for (const i of f(s[k] as XNode, k + 1, z)) {
      if (i instanceof XNode) sawNode = true;
      else sawAtomic = true;
      out.push(i);
    }
  }
  if (sawNode && sawAtomic) throw new XPathError('XPTY0018', 'Cannot mix nodes and atomic values in the result of a path expression');
  return sawNode ? sortDedup(out as XNode[]) : out;
}

/** A path whose last step gives at most one atomic value per node (`X/xs:decimal(.)`): in node order. */
export function mapAtomic(s: XNode[], f: (c: XNode, p: number, z: number) => Atomic | null): Atomic[] {
  const out: Atomic[] = [];
  const z = s.length;
  for (let k = 0; k < z; k++) {
    const v = f(s[k] as XNode, k + 1, z);
    if (v !== null) out.push(v);
  }
  return out;
}

/** Simple map `!`. */
export function simpleMap(s: Seq, f: (c: Item, p: number, z: number) => Seq): Seq {
  const out: Item[] = [];
  const z = s.length;
  for (let k = 0; k < z; k++) for (const i of f(s[k] as Item, k + 1, z)) out.push(i);
  return out;
}

/** Filter with a predicate whose value may be numeric (positional). */
/** A predicate's value: a single number selects by position, anything else by its EBV. */
export function predicateTruth(v: Seq, position: number): boolean {
  if (v.length === 1) {
    const i = v[0] as Item;
    if (typeof i === 'number') return i === position;
    if (i instanceof XDouble) return i.v === position;
    if (i instanceof XDecimal) return compareNumeric(i, position) === 0;
  }
  return ebv(v);
}

export function filterBool(s: Seq, f: (c: Item, p: number, z: number) => boolean): Seq {
  const z = s.length;
  const out: Item[] = [];
  for (let k = 0; k < z; k++) if (f(s[k] as Item, k + 1, z)) out.push(s[k] as Item);
  return out;
}

/** A literal ' A B C ' of codes and the codes between two spaces (codegen spacedList). */
export interface SpacedTokens {
  text: string;
  tokens: Set<string>;
}

export function spacedTokens(text: string): SpacedTokens {
  return { text, tokens: new Set(text.split(' ').slice(1, -1)) };
}

/** `contains(text, concat(' ', s, ' '))`: ' s ' occurs in the text; for s without a space, s is a code between two spaces. */
export function spacedIn(t: SpacedTokens, s: string): boolean {
  return s.includes(' ') ? t.text.includes(` ${s} `) : t.tokens.has(s);
}

/** Per-document memos of node sequences that depend on one node only, by memo number (codegen nodeMemoized). */
export interface NodeMemos {
  nm: (Map<XNode, unknown> | undefined)[];
}

/** A memo's value for the node (a node sequence or an atomic operand, by memo), or undefined. */
export function nodeMemoGet<T>(S: NodeMemos, id: number, x: XNode): T | undefined {
  return S.nm[id]?.get(x) as T | undefined;
}

export function nodeMemoSet<T>(S: NodeMemos, id: number, x: XNode, value: T): T {
  (S.nm[id] ??= new Map()).set(x, value);
  return value;
}

// ------------------------------------------------------------ xsl:key (keys.ts)

/** One xsl:key declaration, compiled: the local names its pattern needs (null: any node), the pattern, the use expression. */
export interface KeyDefinition<S> {
  names: string[] | null;
  match: (S: S, n: XNode) => boolean;
  use: (S: S, n: XNode) => Atomic[];
}

export type KeyIndex = Map<string, XNode[]>;

interface KeyState extends NodeMemos {
  doc: XDocument;
  root: XNode;
}

/** A key value as compared: strings and untyped values by their string, other types refused. */
export function keyString(a: Atomic): string {
  if (typeof a === 'string') return a;
  if (a instanceof Untyped) return a.s;
  throw new Refusal(`a key value of type ${typeName(a)}`);
}

/** Every node of the tree in document order (attributes after their element, before its children). */
function allNodes(n: XNode, out: XNode[]): void {
  out.push(n);
  for (const a of n.at) out.push(a);
  for (const c of n.ch) allNodes(c, out);
}

/** The nodes a key's patterns may match, in document order: the elements of their names, or every node. */
function keyCandidates<S extends KeyState>(S: S, defs: KeyDefinition<S>[]): XNode[] {
  const names = new Set<string>();
  for (const d of defs) {
    if (d.names === null) {
      const out: XNode[] = [];
      allNodes(S.root, out);
      return out;
    }
    for (const n of d.names) names.add(n);
  }
  if (names.size === 1) return S.doc.byLocal.get([...names][0] as string) ?? NONE;
  return S.doc.elements.filter((el) => names.has(el.n));
}

/** A key's index over the validated document: value -> matching nodes, in document order, each once. */
export function keyIndex<S extends KeyState>(S: S, defs: KeyDefinition<S>[]): KeyIndex {
  const index: KeyIndex = new Map();
  for (const n of keyCandidates(S, defs)) {
    for (const d of defs) {
      if (!d.match(S, n)) continue;
      for (const v of d.use(S, n)) {
        const k = keyString(v);
        const list = index.get(k);
        if (list === undefined) index.set(k, [n]);
        else if (list[list.length - 1] !== n) list.push(n); // the same value twice for one node: once
      }
    }
  }
  return index;
}

/** The index of a key for the document of the context node (only the validated document is indexed). */
function indexFor<S extends KeyState>(S: S, index: (S: S) => KeyIndex, context: XNode): KeyIndex {
  if (context.o < 0) throw new Refusal('key() on a temporary tree');
  return index(S);
}

/** `key(name, $value)` of one string. */
export function keyOne<S extends KeyState>(S: S, index: (S: S) => KeyIndex, context: XNode, value: string): XNode[] {
  return indexFor(S, index, context).get(value) ?? NONE;
}

/** `key(name, $values)`: the nodes with any of the values, in document order, each once. */
export function key<S extends KeyState>(S: S, index: (S: S) => KeyIndex, context: XNode, values: Atomic[]): XNode[] {
  const idx = indexFor(S, index, context);
  let out: XNode[] = NONE;
  let merged = false;
  for (const v of values) {
    const list = idx.get(keyString(v));
    if (list === undefined) continue;
    if (out.length === 0) out = list;
    else {
      out = out.concat(list);
      merged = true;
    }
  }
  return merged ? sortDedup(out) : out;
}

/** Whether some node passes every (non-positional) predicate: `exists(X[p][q])` without building X[p][q]. */
export function anyPasses(s: XNode[], ...preds: Pred[]): boolean {
  outer: for (const n of s) {
    for (const p of preds) if (!p(n, 1, 1)) continue outer;
    return true;
  }
  return false;
}

export function at(s: Seq, position: number): Seq {
  const i = s[position - 1];
  return i === undefined ? EMPTY : [i];
}

// ------------------------------------------------------------ node tests

export function nameTest(uri: string | null, local: string | null, kind: Kind): NodeTestFn {
  if (uri !== null && local !== null) return (n) => n.k === kind && n.n === local && n.u === uri;
  if (uri !== null) return (n) => n.k === kind && n.u === uri;
  if (local !== null) return (n) => n.k === kind && n.n === local;
  return (n) => n.k === kind;
}

export const anyNode: NodeTestFn = () => true;
export const textTest: NodeTestFn = (n) => n.k === Kind.Text;
export const commentTest: NodeTestFn = (n) => n.k === Kind.Comment;
export const documentTest: NodeTestFn = (n) => n.k === Kind.Document;
export function piTest(target: string | null): NodeTestFn {
  return (n) => n.k === Kind.ProcessingInstruction && (target === null || n.n === target);
}

// ------------------------------------------------------------ sequences

export function concat(parts: Seq[]): Seq {
  const out: Item[] = [];
  for (const p of parts) for (const i of p) out.push(i);
  return out;
}

export function flatMap(s: Seq, f: (v: Item) => Seq): Seq {
  const out: Item[] = [];
  for (const i of s) for (const r of f(i)) out.push(r);
  return out;
}

export function some(s: Seq, f: (v: Item) => boolean): boolean {
  for (const i of s) if (f(i)) return true;
  return false;
}

export function every(s: Seq, f: (v: Item) => boolean): boolean {
  for (const i of s) if (!f(i)) return false;
  return true;
}

export function range(a: Item | null, b: Item | null): Seq {
  if (a === null || b === null) return EMPTY;
  const x = integerArg(a);
  const y = integerArg(b);
  if (y - x > 10_000_000) throw new Refusal('huge range');
  const out: number[] = [];
  for (let k = x; k <= y; k++) out.push(k);
  return out;
}

function integerArg(i: Item): number {
  const a = atom(i);
  if (typeof a === 'number') return a;
  if (a instanceof Untyped) return castAtomic(a, 'integer') as number;
  return typeError(`${typeName(a)} where xs:integer is required`);
}

export function union(a: Seq, b: Seq): XNode[] {
  return sortDedup([...nodes(a), ...nodes(b)]);
}

export function intersect(a: Seq, b: Seq): XNode[] {
  const set = new Set(nodes(b));
  return sortDedup(nodes(a).filter((n) => set.has(n)));
}

export function except(a: Seq, b: Seq): XNode[] {
  const set = new Set(nodes(b));
  return sortDedup(nodes(a).filter((n) => !set.has(n)));
}

// ------------------------------------------------------------ comparisons and arithmetic

export function generalCompare(op: CompareOp, a: Atomic[], b: Atomic[]): boolean {
  for (const x of a) for (const y of b) if (generalPair(op, x, y)) return true;
  return false;
}

/** General comparison of two optional single values (an empty side compares false). */
export function generalPairOpt(op: CompareOp, a: Atomic | null, b: Atomic | null): boolean {
  return a !== null && b !== null && generalPair(op, a, b);
}

/**
 * General comparison of nodes against one value, without atomizing into a new array; `swapped`
 * when the value is the left operand (the conversion is symmetric, the operator is not).
 */
export function nodesCompare(op: CompareOp, s: XNode[], v: Atomic | null, swapped: boolean): boolean {
  if (v === null) return false;
  for (const n of s) if (swapped ? generalPair(op, v, typed(n)) : generalPair(op, typed(n), v)) return true;
  return false;
}

/** Node sequence `=` string: each node's string value compared as a string. */
export function nodesEqString(s: XNode[], v: string): boolean {
  for (const n of s) if (stringValue(n) === v) return true;
  return false;
}

export function nodesNeString(s: XNode[], v: string): boolean {
  for (const n of s) if (stringValue(n) !== v) return true;
  return false;
}

export function valueCompare(op: CompareOp, a: Atomic | null, b: Atomic | null): boolean | null {
  if (a === null || b === null) return null;
  return valuePair(op, a, b);
}

export function nodeCompare(op: 'is' | '<<' | '>>', a: Item | null, b: Item | null): boolean | null {
  if (a === null || b === null) return null;
  const x = oneNode(a);
  const y = oneNode(b);
  return op === 'is' ? x === y : op === '<<' ? x.o < y.o : x.o > y.o;
}

export function arithmetic(op: ArithOp, a: Atomic | null, b: Atomic | null): Atomic | null {
  if (a === null || b === null) return null;
  return arith(op, a, b);
}

export function neg(a: Atomic | null): Atomic | null {
  return a === null ? null : negate(a);
}

export function pos(a: Atomic | null): Atomic | null {
  if (a === null) return null;
  if (a instanceof Untyped) return numArg(a);
  if (!isNumeric(a)) typeError(`${typeName(a)} where a number is required`);
  return a;
}

// ------------------------------------------------------------ types

export function castableTo(s: Atomic[], type: string, optional: boolean): boolean {
  if (s.length === 0) return optional;
  if (s.length > 1) return false;
  return castable(s[0] as Atomic, type);
}

export function castTo(a: Atomic | null, type: string, optional: boolean): Atomic | null {
  if (a === null) {
    if (optional) return null;
    typeError('empty sequence cannot be cast');
  }
  return castAtomic(a, type);
}

export function isInstance(i: Item, type: string): boolean {
  switch (type) {
    case 'item':
      return true;
    case 'node':
      return i instanceof XNode;
    case 'element':
      return i instanceof XNode && i.k === Kind.Element;
    case 'attribute':
      return i instanceof XNode && i.k === Kind.Attribute;
    case 'text':
      return i instanceof XNode && i.k === Kind.Text;
    case 'document':
      return i instanceof XNode && i.k === Kind.Document;
    case 'string':
      return typeof i === 'string';
    case 'boolean':
      return typeof i === 'boolean';
    case 'integer':
      return typeof i === 'number';
    case 'decimal':
      return typeof i === 'number' || i instanceof XDecimal;
    case 'double':
      return i instanceof XDouble;
    case 'numeric':
      return typeof i === 'number' || i instanceof XDecimal || i instanceof XDouble;
    case 'untypedAtomic':
      return i instanceof Untyped;
    case 'date':
      return i instanceof XDate;
    case 'anyAtomicType':
      return !(i instanceof XNode);
    default:
      throw new Refusal(`instance of ${type}`);
  }
}

export function instanceOf(s: Seq, type: string, occ: string): boolean {
  if (s.length === 0) return occ === '?' || occ === '*';
  if (s.length > 1 && (occ === '' || occ === '?')) return false;
  return s.every((i) => isInstance(i, type));
}

// ------------------------------------------------------------ strings

const HAS_SURROGATE = /[\uD800-\uDFFF]/;

function codepoints(s: string): string[] {
  return Array.from(s);
}

export function stringLength(s: string): number {
  return HAS_SURROGATE.test(s) ? codepoints(s).length : s.length;
}

/** fn:round on a double, as SaxonJS (Math.round). */
function roundDouble(v: number): number {
  return Math.round(v);
}

export function substring(s: string, start: number, length?: number): string {
  const chars = HAS_SURROGATE.test(s) ? codepoints(s) : null;
  const n = chars ? chars.length : s.length;
  const first = roundDouble(start);
  const last = length === undefined ? Infinity : first + roundDouble(length);
  if (Number.isNaN(first) || Number.isNaN(last)) return '';
  const from = Math.max(first, 1);
  const to = Math.min(last, n + 1); // exclusive
  if (to <= from) return '';
  return chars ? chars.slice(from - 1, to - 1).join('') : s.slice(from - 1, to - 1);
}

export function substringBefore(a: string, b: string): string {
  const k = a.indexOf(b);
  return k < 0 ? '' : a.slice(0, k);
}

export function substringAfter(a: string, b: string): string {
  if (b === '') return a;
  const k = a.indexOf(b);
  return k < 0 ? '' : a.slice(k + b.length);
}

/** fn:normalize-space; most values are already normal, which one scan tells without a regex. */
export function normalizeSpace(s: string): string {
  const n = s.length;
  if (n === 0) return s;
  let clean = s.charCodeAt(0) !== 32 && s.charCodeAt(n - 1) !== 32;
  for (let k = 0; clean && k < n; k++) {
    const c = s.charCodeAt(k);
    if (c === 9 || c === 10 || c === 13 || (c === 32 && s.charCodeAt(k + 1) === 32)) clean = false;
  }
  return clean ? s : s.replace(/[ \t\n\r]+/g, ' ').replace(/^ | $/g, '');
}

export function translate(s: string, map: string, trans: string): string {
  const m = codepoints(map);
  const t = codepoints(trans);
  const table = new Map<string, string>();
  m.forEach((c, k) => {
    if (!table.has(c)) table.set(c, t[k] ?? '');
  });
  let out = '';
  for (const c of codepoints(s)) out += table.has(c) ? table.get(c) : c;
  return out;
}

export function stringToCodepoints(s: string): number[] {
  return codepoints(s).map((c) => c.codePointAt(0) ?? 0);
}

export function codepointsToString(s: Seq): string {
  let out = '';
  for (const i of s) {
    const a = atom(i);
    const v = typeof a === 'number' ? a : a instanceof Untyped ? (castAtomic(a, 'integer') as number) : typeError('codepoints-to-string needs integers');
    if (!(v === 0x9 || v === 0xa || v === 0xd || (v >= 0x20 && v <= 0xd7ff) || (v >= 0xe000 && v <= 0xfffd) || (v >= 0x10000 && v <= 0x10ffff))) {
      throw new XPathError('FOCH0001', `Invalid XML character [x${v.toString(16)}]`);
    }
    out += String.fromCodePoint(v);
  }
  return out;
}

export function concatStrings(parts: (Item | null)[]): string {
  let out = '';
  for (const p of parts) if (p !== null) out += p instanceof XNode ? stringValue(p) : atomicToString(p);
  return out;
}

export function stringJoin(s: Seq, sep: string): string {
  return atomize(s).map(atomicToString).join(sep);
}

export function matches(input: string, pattern: string, flags?: string): boolean {
  return xpathRegex(pattern, flags).test(input);
}

export function replace(input: string, pattern: string, replacement: string, flags?: string): string {
  const re = xpathRegexGlobal(pattern, flags);
  const groups = new RegExp(`${re.source}|`, 'u').exec('')?.length ?? 1;
  const fn = replacementFunction(replacement, groups - 1);
  return input.replace(re, (match: string, ...rest: unknown[]) => fn(match, rest.slice(0, groups - 1) as (string | undefined)[]));
}

export function tokenize(input: string, pattern: string, flags?: string): string[] {
  if (input === '') return [];
  const re = xpathRegexGlobal(pattern, flags);
  const out: string[] = [];
  let last = 0;
  for (let m = re.exec(input); m; m = re.exec(input)) {
    out.push(input.slice(last, m.index));
    last = m.index + m[0].length;
  }
  out.push(input.slice(last));
  return out;
}

export function tokenize1(input: string): string[] {
  const t = normalizeSpace(input);
  return t === '' ? [] : t.split(' ');
}

export function upperCase(s: string): string {
  return s.toUpperCase();
}

export function lowerCase(s: string): string {
  return s.toLowerCase();
}

// ------------------------------------------------------------ numbers

export function number(i: Item | null): XDouble {
  if (i === null) return new XDouble(NaN);
  const a = atom(i);
  if (typeof a === 'number') return new XDouble(a);
  if (a instanceof XDouble) return a;
  if (a instanceof XDecimal) return new XDouble(parseFloat(atomicToString(a)));
  if (typeof a === 'boolean') return new XDouble(a ? 1 : 0);
  if (typeof a === 'string' || a instanceof Untyped) return new XDouble(parseDoubleOrNull(typeof a === 'string' ? a : a.s) ?? NaN);
  return new XDouble(NaN);
}

export function sum(s: Seq, zero: Atomic | null = 0): Atomic | null {
  const a = atomize(s);
  if (a.length === 0) return zero;
  let acc: Atomic | null = null;
  for (const x of a) {
    const v = x instanceof Untyped ? numArg(x) : x;
    if (v === null || !isNumeric(v)) throw new XPathError('FORG0006', `sum() of ${typeName(x)}`);
    acc = acc === null ? v : arith('+', acc, v);
  }
  return acc;
}

export function avg(s: Seq): Atomic | null {
  const a = atomize(s);
  if (a.length === 0) return null;
  const total = sum(a);
  return arith('div', total as Atomic, a.length);
}

export function minMax(s: Seq, max: boolean): Atomic | null {
  const a = atomize(s).map((x) => (x instanceof Untyped ? (numArg(x) as Atomic) : x));
  if (a.length === 0) return null;
  if (a.some((x) => x instanceof XDouble && Number.isNaN(x.v))) throw new Refusal('min/max with NaN');
  let best = a[0] as Atomic;
  for (const x of a.slice(1)) {
    if (!valuePair(max ? '>' : '<', best, x) && valuePair(max ? '<' : '>', best, x)) best = x;
  }
  if (a.some((x) => typeof x !== typeof best || x.constructor !== best.constructor)) throw new Refusal('min/max over mixed types');
  return best;
}

export function abs(a: Atomic | null): Atomic | null {
  if (a === null) return null;
  if (typeof a === 'number') return Math.abs(a);
  if (a instanceof XDouble) return new XDouble(Math.abs(a.v));
  if (a instanceof XDecimal) return new XDecimal(a.m < 0n ? -a.m : a.m, a.s);
  return typeError('abs() of a non-number');
}

export function round(a: Atomic | null): Atomic | null {
  if (a === null) return null;
  if (typeof a === 'number') return a;
  if (a instanceof XDouble) return new XDouble(roundDouble(a.v));
  if (a instanceof XDecimal) return decRound(a);
  return typeError('round() of a non-number');
}

export function roundHalfToEven(a: Atomic | null): Atomic | null {
  if (a === null) return null;
  if (typeof a === 'number') return a;
  if (a instanceof XDecimal) return decRoundHalfEven(a);
  throw new Refusal('round-half-to-even of a double');
}

export function floor(a: Atomic | null): Atomic | null {
  if (a === null) return null;
  if (typeof a === 'number') return a;
  if (a instanceof XDouble) return new XDouble(Math.floor(a.v));
  if (a instanceof XDecimal) return decFloor(a);
  return typeError('floor() of a non-number');
}

export function ceiling(a: Atomic | null): Atomic | null {
  if (a === null) return null;
  if (typeof a === 'number') return a;
  if (a instanceof XDouble) return new XDouble(Math.ceil(a.v));
  if (a instanceof XDecimal) return decCeiling(a);
  return typeError('ceiling() of a non-number');
}

/** Exact `digits mod 97` for the rewritten IBAN checks (skv:mod97 of the SaxonJS compilation). */
export function mod97(digits: string): number {
  if (!/^[0-9]+$/.test(digits)) throw new Refusal('mod97 of a non-digit string');
  return Number(BigInt(digits) % 97n);
}

export function checkInteger(v: number): number {
  return int(v);
}

// ------------------------------------------------------------ nodes

export function name(n: XNode | null): string {
  return n === null ? '' : nodeName(n);
}

export function localName(n: XNode | null): string {
  if (n === null) return '';
  return n.k === Kind.Element || n.k === Kind.Attribute || n.k === Kind.ProcessingInstruction ? n.n : '';
}

export function namespaceUri(n: XNode | null): string {
  if (n === null) return '';
  return n.k === Kind.Element || n.k === Kind.Attribute ? n.u : '';
}

export function reverse(s: Seq): Seq {
  return [...s].reverse();
}

export function subsequence(s: Seq, start: number, length?: number): Seq {
  const first = roundDouble(start);
  const last = length === undefined ? Infinity : first + roundDouble(length);
  return s.filter((_, k) => k + 1 >= first && k + 1 < last);
}

export function distinctValues(s: Seq): Atomic[] {
  const out: Atomic[] = [];
  for (const x of atomize(s)) {
    const v = x instanceof Untyped ? x.s : x;
    if (typeof v === 'string') {
      if (!out.some((o) => o === v)) out.push(v);
    } else throw new Refusal('distinct-values of non-strings');
  }
  return out;
}

export function exactlyOne(s: Seq): Seq {
  if (s.length !== 1) throw new XPathError('FORG0005', 'fn:exactly-one called with a sequence containing zero or more than one item');
  return s;
}

export function zeroOrOne(s: Seq): Seq {
  if (s.length > 1) throw new XPathError('FORG0003', 'fn:zero-or-one called with a sequence containing more than one item');
  return s;
}

export function oneOrMore(s: Seq): Seq {
  if (s.length === 0) throw new XPathError('FORG0004', 'fn:one-or-more called with a sequence containing no items');
  return s;
}

/** A temporary tree with one text node: the value of `<xsl:variable>text</xsl:variable>`. */
export function textDocument(text: string): XNode {
  const doc = new XNode(Kind.Document, '', '', '', null, '');
  doc.o = doc.e = -1; // not part of the validated document: no index lookups
  if (text !== '') {
    const t = new XNode(Kind.Text, '', '', '', doc, text);
    t.o = t.e = -1;
    doc.ch.push(t);
  }
  return doc;
}

/** The text node `<xsl:value-of select="..."/>` makes (items joined by a space). */
export function valueOf(s: Seq): XNode {
  const t = new XNode(Kind.Text, '', '', '', null, atomize(s).map(atomicToString).join(' '));
  t.o = t.e = -1;
  return t;
}

/**
 * XSLT's function conversion rules for a declared type (xsl:function parameters and results,
 * typed xsl:variable): atomize, cast untypedAtomic, promote numbers, check the kind and cardinality.
 */
export function convert(s: Seq, type: string, occ: string): Seq {
  let out: Seq = s;
  if (type !== 'item' && type !== 'node' && type !== 'element' && type !== 'attribute' && type !== 'text' && type !== 'document') {
    out = atomize(s).map((a) => {
      if (a instanceof Untyped && type !== 'anyAtomicType' && type !== 'untypedAtomic') return castAtomic(a, type);
      if (type === 'double' && (typeof a === 'number' || a instanceof XDecimal)) return castAtomic(a, 'double');
      if (type === 'decimal' && typeof a === 'number') return a;
      if (!isInstance(a, type)) typeError(`${typeName(a)} where xs:${type} is required`);
      return a;
    });
  } else {
    for (const i of out) if (!isInstance(i, type)) typeError(`an item that is not ${type}()`);
  }
  if (out.length === 0 && (occ === '' || occ === '+')) typeError('an empty sequence where a value is required');
  if (out.length > 1 && (occ === '' || occ === '?')) typeError('more than one item where at most one is allowed');
  return out;
}

// Re-exported for generated code.
export { XDecimal, XDouble, Untyped, XPathError, Refusal, atomicToString, castAtomic, typeName, generalPair };
export { parseDecimal } from './values.ts';

// ------------------------------------------------------------ patterns and messages

/** True for a node of a tree rooted at a document node (`//x` patterns). */
export function inDocument(n: XNode): boolean {
  return rootOf(n).k === Kind.Document;
}

export function someAncestorOrSelf(n: XNode | null, f: (x: XNode) => boolean): boolean {
  for (let x = n; x; x = x.parent) if (f(x)) return true;
  return false;
}

/** A message's value-of: `string-join(for $v in (E) return string($v), ' ')`. */
export function stringJoinStrings(s: Seq): string {
  return s.map((i) => str(i)).join(' ');
}
