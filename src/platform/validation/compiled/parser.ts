// XPath 2.0 parser (with the 3.x `let`, `||` and `!` forms) producing the tree in ast.ts.
// Prefixes resolve through the rule file's namespace declarations; unprefixed element names have
// no namespace and unprefixed functions are fn:, as in the XSLT the Schematron compiles to.
import {
  eqName,
  FN_NS,
  XS_NS,
  type AtomicTypeName,
  type Axis,
  type BinaryOp,
  type Expr,
  type ItemType,
  type NodeTest,
  type SequenceType,
} from './ast.ts';

export class XPathSyntaxError extends Error {}

type Token =
  | { k: 'name'; v: string; pos: number } // NCName or prefix:local
  | { k: 'wild'; v: string; pos: number } // prefix:* or *:local
  | { k: 'num'; v: string; kind: 'integer' | 'decimal' | 'double'; pos: number }
  | { k: 'str'; v: string; pos: number }
  | { k: 'sym'; v: string; pos: number }
  | { k: 'eof'; v: ''; pos: number };

const SYMBOLS = ['(:', '//', '::', '..', '!=', '<=', '>=', '<<', '>>', '||', ':=', '(', ')', '[', ']', ',', '/', '@', '.', '*', '|', '=', '<', '>', '+', '-', '?', '$', '!', '{', '}', ':'];

function isNameStart(c: string): boolean {
  return /[A-Za-z_]/.test(c) || c.charCodeAt(0) >= 0x80;
}
function isNameChar(c: string): boolean {
  return /[A-Za-z0-9_.-]/.test(c) || c.charCodeAt(0) >= 0x80;
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = src.length;
  const ncname = (start: number): number => {
    let j = start;
    while (j < n && isNameChar(src[j] ?? '')) j++;
    return j;
  };
  while (i < n) {
    const c = src[i] ?? '';
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (src.startsWith('(:', i)) {
      let depth = 0;
      do {
        if (src.startsWith('(:', i)) {
          depth++;
          i += 2;
        } else if (src.startsWith(':)', i)) {
          depth--;
          i += 2;
        } else if (i >= n) throw new XPathSyntaxError('unterminated comment');
        else i++;
      } while (depth > 0);
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let v = '';
      for (;;) {
        const k = src.indexOf(c, j);
        if (k < 0) throw new XPathSyntaxError('unterminated string literal');
        v += src.slice(j, k);
        if (src[k + 1] === c) {
          v += c;
          j = k + 2;
        } else {
          j = k + 1;
          break;
        }
      }
      out.push({ k: 'str', v, pos: i });
      i = j;
      continue;
    }
    const num = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(src.slice(i, i + 400));
    if (num && (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? '')))) {
      const v = num[0];
      const kind = /[eE]/.test(v) ? 'double' : v.includes('.') ? 'decimal' : 'integer';
      i += v.length;
      if (isNameStart(src[i] ?? ' ')) throw new XPathSyntaxError(`number followed by a name at ${i}`);
      out.push({ k: 'num', v, kind, pos: i - v.length });
      continue;
    }
    if (isNameStart(c)) {
      const j = ncname(i);
      if (src[j] === ':' && src[j + 1] === '*') {
        out.push({ k: 'wild', v: src.slice(i, j + 2), pos: i });
        i = j + 2;
      } else if (src[j] === ':' && isNameStart(src[j + 1] ?? ' ')) {
        const k = ncname(j + 1);
        out.push({ k: 'name', v: src.slice(i, k), pos: i });
        i = k;
      } else {
        out.push({ k: 'name', v: src.slice(i, j), pos: i });
        i = j;
      }
      continue;
    }
    if (c === '*' && src[i + 1] === ':' && isNameStart(src[i + 2] ?? ' ')) {
      const k = ncname(i + 2);
      out.push({ k: 'wild', v: src.slice(i, k), pos: i });
      i = k;
      continue;
    }
    const sym = SYMBOLS.find((s) => src.startsWith(s, i));
    if (!sym) throw new XPathSyntaxError(`unexpected character ${JSON.stringify(c)} at ${i}`);
    out.push({ k: 'sym', v: sym, pos: i });
    i += sym.length;
  }
  out.push({ k: 'eof', v: '', pos: n });
  return out;
}

const AXES: ReadonlySet<string> = new Set([
  'child',
  'attribute',
  'self',
  'parent',
  'ancestor',
  'ancestor-or-self',
  'descendant',
  'descendant-or-self',
  'following-sibling',
  'preceding-sibling',
  'following',
  'preceding',
]);

const KIND_TESTS: ReadonlySet<string> = new Set([
  'node',
  'text',
  'comment',
  'processing-instruction',
  'element',
  'attribute',
  'document-node',
  'schema-element',
  'schema-attribute',
  'item',
  'empty-sequence',
  'namespace-node',
]);

const ATOMIC_TYPES: ReadonlySet<string> = new Set(['string', 'boolean', 'decimal', 'integer', 'double', 'date', 'untypedAtomic', 'anyAtomicType', 'numeric']);

export interface ParseOptions {
  /** prefix -> namespace URI of the rule file. */
  namespaces: ReadonlyMap<string, string>;
}

class Parser {
  private pos = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly ns: ReadonlyMap<string, string>,
    private readonly src: string,
  ) {}

  private peek(o = 0): Token {
    return this.tokens[Math.min(this.pos + o, this.tokens.length - 1)] as Token;
  }
  private next(): Token {
    const t = this.peek();
    this.pos++;
    return t;
  }
  private isSym(v: string, o = 0): boolean {
    const t = this.peek(o);
    return t.k === 'sym' && t.v === v;
  }
  private isName(v: string, o = 0): boolean {
    const t = this.peek(o);
    return t.k === 'name' && t.v === v;
  }
  private expectSym(v: string): void {
    const t = this.next();
    if (t.k !== 'sym' || t.v !== v) throw this.error(`expected ${v}`, t);
  }
  private expectName(v: string): void {
    const t = this.next();
    if (t.k !== 'name' || t.v !== v) throw this.error(`expected ${v}`, t);
  }
  private error(msg: string, t: Token = this.peek()): XPathSyntaxError {
    return new XPathSyntaxError(`${msg} at ${t.pos} in ${JSON.stringify(this.src.slice(0, 200))}`);
  }

  private resolve(prefix: string): string {
    if (prefix === 'xs') return this.ns.get('xs') ?? XS_NS;
    if (prefix === 'fn') return this.ns.get('fn') ?? FN_NS;
    if (prefix === 'xml') return 'http://www.w3.org/XML/1998/namespace';
    const uri = this.ns.get(prefix);
    if (uri === undefined) throw this.error(`undeclared prefix ${prefix}`);
    return uri;
  }

  /** Element/attribute name: unprefixed means no namespace. */
  private nameParts(qname: string): { uri: string; local: string } {
    const colon = qname.indexOf(':');
    if (colon < 0) return { uri: '', local: qname };
    return { uri: this.resolve(qname.slice(0, colon)), local: qname.slice(colon + 1) };
  }

  private functionName(qname: string): string {
    const colon = qname.indexOf(':');
    if (colon < 0) return eqName(FN_NS, qname);
    return eqName(this.resolve(qname.slice(0, colon)), qname.slice(colon + 1));
  }

  private varName(): string {
    this.expectSym('$');
    const t = this.next();
    if (t.k !== 'name') throw this.error('expected a variable name', t);
    const colon = t.v.indexOf(':');
    return colon < 0 ? t.v : eqName(this.resolve(t.v.slice(0, colon)), t.v.slice(colon + 1));
  }

  parseAll(): Expr {
    const e = this.expr();
    if (this.peek().k !== 'eof') throw this.error('unexpected token');
    return e;
  }

  private expr(): Expr {
    const first = this.exprSingle();
    if (!this.isSym(',')) return first;
    const items = [first];
    while (this.isSym(',')) {
      this.next();
      items.push(this.exprSingle());
    }
    return { t: 'sequence', items };
  }

  private exprSingle(): Expr {
    const t = this.peek();
    if (t.k === 'name' && this.isSym('$', 1)) {
      if (t.v === 'for') return this.forExpr();
      if (t.v === 'let') return this.letExpr();
      if (t.v === 'some' || t.v === 'every') return this.quantified();
    }
    if (t.k === 'name' && t.v === 'if' && this.isSym('(', 1)) return this.ifExpr();
    return this.orExpr();
  }

  private bindings(keyword: string): { name: string; value: Expr }[] {
    const out: { name: string; value: Expr }[] = [];
    do {
      if (out.length > 0) this.next(); // ','
      const name = this.varName();
      if (keyword === 'let') this.expectSym(':=');
      else this.expectName('in');
      out.push({ name, value: this.exprSingle() });
    } while (this.isSym(','));
    return out;
  }

  private forExpr(): Expr {
    this.next();
    const bs = this.bindings('for');
    this.expectName('return');
    let body = this.exprSingle();
    for (let i = bs.length - 1; i >= 0; i--) {
      const b = bs[i] as { name: string; value: Expr };
      body = { t: 'for', name: b.name, in: b.value, ret: body };
    }
    return body;
  }

  private letExpr(): Expr {
    this.next();
    const bs = this.bindings('let');
    this.expectName('return');
    let body = this.exprSingle();
    for (let i = bs.length - 1; i >= 0; i--) {
      const b = bs[i] as { name: string; value: Expr };
      body = { t: 'let', name: b.name, value: b.value, ret: body };
    }
    return body;
  }

  private quantified(): Expr {
    const every = this.next().v === 'every';
    const bs = this.bindings('some');
    this.expectName('satisfies');
    let body = this.exprSingle();
    for (let i = bs.length - 1; i >= 0; i--) {
      const b = bs[i] as { name: string; value: Expr };
      body = { t: 'quantified', every, name: b.name, in: b.value, sat: body };
    }
    return body;
  }

  private ifExpr(): Expr {
    this.next();
    this.expectSym('(');
    const cond = this.expr();
    this.expectSym(')');
    this.expectName('then');
    const then = this.exprSingle();
    this.expectName('else');
    return { t: 'if', cond, then, else: this.exprSingle() };
  }

  private orExpr(): Expr {
    let l = this.andExpr();
    while (this.isName('or')) {
      this.next();
      l = { t: 'binary', op: 'or', l, r: this.andExpr() };
    }
    return l;
  }

  private andExpr(): Expr {
    let l = this.comparison();
    while (this.isName('and')) {
      this.next();
      l = { t: 'binary', op: 'and', l, r: this.comparison() };
    }
    return l;
  }

  private comparison(): Expr {
    const l = this.concat();
    const t = this.peek();
    const general = ['=', '!=', '<', '<=', '>', '>=', '<<', '>>'];
    const named = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'is'];
    if ((t.k === 'sym' && general.includes(t.v)) || (t.k === 'name' && named.includes(t.v))) {
      this.next();
      return { t: 'binary', op: t.v as BinaryOp, l, r: this.concat() };
    }
    return l;
  }

  private concat(): Expr {
    let l = this.range();
    while (this.isSym('||')) {
      this.next();
      l = { t: 'binary', op: '||', l, r: this.range() };
    }
    return l;
  }

  private range(): Expr {
    const l = this.additive();
    if (this.isName('to')) {
      this.next();
      return { t: 'binary', op: 'to', l, r: this.additive() };
    }
    return l;
  }

  private additive(): Expr {
    let l = this.multiplicative();
    while (this.isSym('+') || this.isSym('-')) {
      const op = this.next().v as '+' | '-';
      l = { t: 'binary', op, l, r: this.multiplicative() };
    }
    return l;
  }

  private multiplicative(): Expr {
    let l = this.union();
    for (;;) {
      const t = this.peek();
      if (t.k === 'sym' && t.v === '*') {
        this.next();
        l = { t: 'binary', op: '*', l, r: this.union() };
      } else if (t.k === 'name' && (t.v === 'div' || t.v === 'idiv' || t.v === 'mod')) {
        this.next();
        l = { t: 'binary', op: t.v, l, r: this.union() };
      } else return l;
    }
  }

  private union(): Expr {
    let l = this.intersect();
    while (this.isSym('|') || this.isName('union')) {
      this.next();
      l = { t: 'binary', op: 'union', l, r: this.intersect() };
    }
    return l;
  }

  private intersect(): Expr {
    let l = this.instanceOf();
    while (this.isName('intersect') || this.isName('except')) {
      const op = this.next().v as 'intersect' | 'except';
      l = { t: 'binary', op, l, r: this.instanceOf() };
    }
    return l;
  }

  private instanceOf(): Expr {
    const e = this.treat();
    if (this.isName('instance') && this.isName('of', 1)) {
      this.pos += 2;
      return { t: 'instance', e, type: this.sequenceType() };
    }
    return e;
  }

  private treat(): Expr {
    const e = this.castable();
    if (this.isName('treat') && this.isName('as', 1)) {
      this.pos += 2;
      return { t: 'treat', e, type: this.sequenceType() };
    }
    return e;
  }

  private castable(): Expr {
    const e = this.cast();
    if (this.isName('castable') && this.isName('as', 1)) {
      this.pos += 2;
      const { type, optional } = this.singleType();
      return { t: 'castable', e, type, optional };
    }
    return e;
  }

  private cast(): Expr {
    const e = this.unary();
    if (this.isName('cast') && this.isName('as', 1)) {
      this.pos += 2;
      const { type, optional } = this.singleType();
      return { t: 'cast', e, type, optional };
    }
    return e;
  }

  private atomicType(qname: string): AtomicTypeName {
    const { uri, local } = this.nameParts(qname);
    if (uri !== XS_NS || !ATOMIC_TYPES.has(local)) throw this.error(`unsupported type ${qname}`);
    return local as AtomicTypeName;
  }

  private singleType(): { type: AtomicTypeName; optional: boolean } {
    const t = this.next();
    if (t.k !== 'name') throw this.error('expected a type name', t);
    const type = this.atomicType(t.v);
    const optional = this.isSym('?');
    if (optional) this.next();
    return { type, optional };
  }

  private sequenceType(): SequenceType {
    const t = this.peek();
    if (t.k === 'name' && t.v === 'empty-sequence' && this.isSym('(', 1)) {
      this.pos += 2;
      this.expectSym(')');
      return { item: null, occ: '' };
    }
    let item: ItemType;
    if (t.k === 'name' && t.v === 'item' && this.isSym('(', 1)) {
      this.pos += 2;
      this.expectSym(')');
      item = { kind: 'item' };
    } else if (t.k === 'name' && KIND_TESTS.has(t.v) && this.isSym('(', 1)) {
      item = { kind: 'node', test: this.kindTest() };
    } else if (t.k === 'name') {
      this.next();
      item = { kind: 'atomic', type: this.atomicType(t.v) };
    } else throw this.error('expected a sequence type');
    const o = this.peek();
    let occ: SequenceType['occ'] = '';
    if (o.k === 'sym' && (o.v === '?' || o.v === '*' || o.v === '+')) {
      this.next();
      occ = o.v;
    }
    return { item, occ };
  }

  private unary(): Expr {
    if (this.isSym('-') || this.isSym('+')) {
      const op = this.next().v as '-' | '+';
      return { t: 'unary', op, e: this.unary() };
    }
    return this.simpleMap();
  }

  private simpleMap(): Expr {
    let l = this.path();
    while (this.isSym('!')) {
      this.next();
      l = { t: 'map', l, r: this.path() };
    }
    return l;
  }

  private startsRelativePath(): boolean {
    const t = this.peek();
    if (t.k === 'name' || t.k === 'wild' || t.k === 'num' || t.k === 'str') return true;
    return t.k === 'sym' && ['*', '@', '.', '..', '$', '('].includes(t.v);
  }

  private path(): Expr {
    if (this.isSym('/')) {
      this.next();
      if (!this.startsRelativePath()) return { t: 'root' };
      return this.relativePath({ t: 'root' });
    }
    if (this.isSym('//')) {
      this.next();
      return this.relativePath(descendantOrSelf({ t: 'root' }));
    }
    return this.relativePath(null);
  }

  private relativePath(start: Expr | null): Expr {
    let e: Expr = start ? { t: 'path', lhs: start, rhs: this.stepExpr() } : this.stepExpr();
    for (;;) {
      if (this.isSym('/')) {
        this.next();
        e = { t: 'path', lhs: e, rhs: this.stepExpr() };
      } else if (this.isSym('//')) {
        this.next();
        e = { t: 'path', lhs: descendantOrSelf(e), rhs: this.stepExpr() };
      } else return e;
    }
  }

  private predicates(): Expr[] {
    const preds: Expr[] = [];
    while (this.isSym('[')) {
      this.next();
      preds.push(this.expr());
      this.expectSym(']');
    }
    return preds;
  }

  private stepExpr(): Expr {
    const t = this.peek();
    // axis steps
    if (t.k === 'sym' && t.v === '..') {
      this.next();
      return { t: 'step', axis: 'parent', test: { kind: 'node' }, preds: this.predicates() };
    }
    if (t.k === 'sym' && t.v === '@') {
      this.next();
      return { t: 'step', axis: 'attribute', test: this.nodeTest('attribute'), preds: this.predicates() };
    }
    if (t.k === 'name' && this.isSym('::', 1)) {
      if (!AXES.has(t.v)) throw this.error(`unknown axis ${t.v}`);
      this.pos += 2;
      const axis = t.v as Axis;
      return { t: 'step', axis, test: this.nodeTest(axis === 'attribute' ? 'attribute' : 'element'), preds: this.predicates() };
    }
    if (t.k === 'wild' || (t.k === 'sym' && t.v === '*')) {
      return { t: 'step', axis: 'child', test: this.nodeTest('element'), preds: this.predicates() };
    }
    if (t.k === 'name' && !this.isSym('(', 1)) {
      return { t: 'step', axis: 'child', test: this.nodeTest('element'), preds: this.predicates() };
    }
    if (t.k === 'name' && KIND_TESTS.has(t.v) && this.isSym('(', 1)) {
      const test = this.kindTest();
      return { t: 'step', axis: test.kind === 'attribute' ? 'attribute' : 'child', test, preds: this.predicates() };
    }
    // filter expressions
    const base = this.primary();
    const preds = this.predicates();
    return preds.length === 0 ? base : { t: 'filter', base, preds };
  }

  private nodeTest(principal: 'element' | 'attribute'): NodeTest {
    const t = this.peek();
    if (t.k === 'name' && KIND_TESTS.has(t.v) && this.isSym('(', 1)) return this.kindTest();
    this.next();
    if (t.k === 'sym' && t.v === '*') return { kind: 'name', uri: null, local: null };
    if (t.k === 'wild') {
      if (t.v.startsWith('*:')) return { kind: 'name', uri: null, local: t.v.slice(2) };
      return { kind: 'name', uri: this.resolve(t.v.slice(0, -2)), local: null };
    }
    if (t.k === 'name') {
      const { uri, local } = this.nameParts(t.v);
      return { kind: 'name', uri: principal === 'attribute' && !t.v.includes(':') ? '' : uri, local };
    }
    throw this.error('expected a node test', t);
  }

  private kindTest(): NodeTest {
    const name = this.next().v;
    this.expectSym('(');
    let test: NodeTest;
    const optName = (): { uri: string | null; local: string | null } => {
      if (this.isSym(')')) return { uri: null, local: null };
      const t = this.next();
      if (t.k === 'sym' && t.v === '*') return { uri: null, local: null };
      if (t.k !== 'name') throw this.error('expected a name', t);
      if (this.isSym(',')) throw this.error('typed kind tests are not supported');
      return this.nameParts(t.v);
    };
    switch (name) {
      case 'node':
        test = { kind: 'node' };
        break;
      case 'text':
        test = { kind: 'text' };
        break;
      case 'comment':
        test = { kind: 'comment' };
        break;
      case 'processing-instruction': {
        const t = this.peek();
        if (t.k === 'name' || t.k === 'str') {
          this.next();
          test = { kind: 'pi', target: t.v };
        } else test = { kind: 'pi', target: null };
        break;
      }
      case 'element':
        test = { kind: 'element', ...optName() };
        break;
      case 'attribute': {
        const n = optName();
        test = { kind: 'attribute', uri: n.uri, local: n.local };
        break;
      }
      case 'document-node':
        if (!this.isSym(')')) throw this.error('document-node(element(...)) is not supported');
        test = { kind: 'document' };
        break;
      default:
        throw this.error(`${name}() is not supported`);
    }
    this.expectSym(')');
    return test;
  }

  private primary(): Expr {
    const t = this.next();
    if (t.k === 'str') return { t: 'string', v: t.v };
    if (t.k === 'num') return { t: t.kind, v: t.v };
    if (t.k === 'sym' && t.v === '$') {
      this.pos--;
      return { t: 'var', name: this.varName() };
    }
    if (t.k === 'sym' && t.v === '.') return { t: 'context' };
    if (t.k === 'sym' && t.v === '(') {
      if (this.isSym(')')) {
        this.next();
        return { t: 'sequence', items: [] };
      }
      const e = this.expr();
      this.expectSym(')');
      // keep parentheses visible: (a/b)[1] is not a/b[1]
      return e.t === 'step' ? { t: 'filter', base: e, preds: [] } : e;
    }
    if (t.k === 'name' && this.isSym('(')) {
      this.next();
      const args: Expr[] = [];
      if (!this.isSym(')')) {
        do {
          if (args.length > 0) this.next();
          if (this.isSym('?')) throw this.error('partial function application is not supported');
          args.push(this.exprSingle());
        } while (this.isSym(','));
      }
      this.expectSym(')');
      return { t: 'call', name: this.functionName(t.v), args };
    }
    throw this.error('unexpected token', t);
  }
}

function descendantOrSelf(lhs: Expr): Expr {
  return { t: 'path', lhs, rhs: { t: 'step', axis: 'descendant-or-self', test: { kind: 'node' }, preds: [] } };
}

export function parseXPath(src: string, options: ParseOptions): Expr {
  return new Parser(tokenize(src), options.namespaces, src).parseAll();
}
