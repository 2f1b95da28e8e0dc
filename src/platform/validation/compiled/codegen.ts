// XPath AST -> JavaScript source. Every expression compiles to a JavaScript expression plus what the
// compiler knows of its value (cardinality, item kind), so that the common cases need no generic
// sequence machinery: `normalize-space(cbc:ID) = 'S'` becomes a string comparison, `cbc:X` a child
// scan, `//cac:Y` an index lookup. Generated code calls the runtime (runtime.ts) as `R`, reads the
// per-document state as `S` (S.doc, S.g for globals) and hoisted constants (K*). Anything the
// compiler cannot translate exactly throws CompileError: the rule then runs in SaxonJS.
import { eqName, FN_NS, XS_NS, type Axis, type Expr, type NodeTest, type SequenceType } from './ast.ts';
import { supportedRegexFlags, xpathRegex } from './regex.ts';
import { Kind } from './tree.ts';
import { parseDecimal } from './values.ts';

export class CompileError extends Error {}

export type Card = 'one' | 'opt' | 'many';
export type SK = 'node' | 'string' | 'boolean' | 'integer' | 'decimal' | 'double' | 'untyped' | 'date' | 'numeric' | 'atomic' | 'item';

/** A compiled expression: JavaScript code and what is known of its value. */
export interface G {
  c: string;
  card: Card;
  kind: SK;
  /** The empty sequence literal: neutral when merging branch types. */
  empty?: boolean;
  /** For node sequences built as `base` filtered by boolean predicates: asking whether any node passes can stop at the first. */
  filtered?: { base: string; preds: string[] };
}

export interface Focus {
  c: string;
  kind: SK;
  p: string | null;
  z: string | null;
  /** Set when position() or last() was used against this focus. */
  usedPosition?: boolean;
}

export interface Scope {
  vars: ReadonlyMap<string, G>;
  focus: Focus | null;
}

/** A user function (xsl:function) as the expression compiler calls it. */
export interface UserFunction {
  js: string;
  params: (SequenceType | null)[];
  result: { card: Card; kind: SK };
}

export interface Environment {
  /** A global variable's getter result, compiled on demand; undefined when there is none. */
  global(name: string): G | undefined;
  userFunction(name: string, arity: number): UserFunction | undefined;
  /** The function returning a declared key's index (keys.ts) for a key name as written; undefined when there is none. */
  key(name: string): string | undefined;
}

const NUMERIC: ReadonlySet<SK> = new Set(['integer', 'decimal', 'double', 'numeric']);
const ATOMIC: ReadonlySet<SK> = new Set(['string', 'boolean', 'integer', 'decimal', 'double', 'untyped', 'date', 'numeric', 'atomic']);

export function mergeKind(a: G, b: G): SK {
  if (a.empty) return b.kind;
  if (b.empty) return a.kind;
  if (a.kind === b.kind) return a.kind;
  if (NUMERIC.has(a.kind) && NUMERIC.has(b.kind)) return 'numeric';
  if (ATOMIC.has(a.kind) && ATOMIC.has(b.kind)) return 'atomic';
  return 'item';
}

function atomizedKind(k: SK): SK {
  return k === 'node' ? 'untyped' : k === 'item' ? 'atomic' : k;
}

const TYPE_KIND: Record<string, SK> = {
  string: 'string',
  boolean: 'boolean',
  decimal: 'decimal',
  integer: 'integer',
  double: 'double',
  date: 'date',
  untypedAtomic: 'untyped',
  anyAtomicType: 'atomic',
  numeric: 'numeric',
};

/** Card and kind of a value declared with a SequenceType. */
export function declaredType(t: SequenceType | null): { card: Card; kind: SK } {
  if (t === null) return { card: 'many', kind: 'item' };
  if (t.item === null) return { card: 'many', kind: 'item' };
  const kind: SK = t.item.kind === 'atomic' ? (TYPE_KIND[t.item.type] ?? 'atomic') : t.item.kind === 'node' ? 'node' : 'item';
  const card: Card = t.occ === '' ? 'one' : t.occ === '?' ? 'opt' : 'many';
  return { card, kind };
}

const js = (s: string): string => JSON.stringify(s);

/** Shared state of one generated module: hoisted constants and unique names. */
export class ModuleBuilder {
  readonly decls: string[] = [];
  private readonly constants = new Map<string, string>();
  private counter = 0;

  constant(code: string): string {
    let name = this.constants.get(code);
    if (!name) {
      name = `K${this.constants.size}`;
      this.constants.set(code, name);
      this.decls.push(`const ${name} = ${code};`);
    }
    return name;
  }

  private readonly nodeMemos = new Map<string, number>();

  /** The number of a per-document memo (runtime nodeMemo) for an expression's key. */
  nodeMemo(key: string): number {
    let id = this.nodeMemos.get(key);
    if (id === undefined) {
      id = this.nodeMemos.size;
      this.nodeMemos.set(key, id);
    }
    return id;
  }

  fresh(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }
}

const LOCAL = /\b[cpzvntdoa]\d+\b/g;
const BINDER = /\(([a-z]\d+(?:, [a-z]\d+)*)\) =>/g;

/**
 * The code with the parameters of its own closures numbered by first appearance (so two copies of an
 * expression compiled with different fresh names get one key), or null when it uses a local bound
 * outside it: its value then depends on more than the rule's context.
 */
export function closedForm(code: string): string | null {
  const locals = code.match(LOCAL);
  if (!locals) return code;
  if (freeLocals(code).size > 0) return null;
  const names = new Map<string, string>();
  return code.replace(LOCAL, (id) => {
    let n = names.get(id);
    if (n === undefined) {
      n = `#${names.size}`;
      names.set(id, n);
    }
    return n;
  });
}

/** The locals the code uses but does not bind in its own closures. */
export function freeLocals(code: string): Set<string> {
  const bound = new Set<string>();
  for (const m of code.matchAll(BINDER)) for (const id of (m[1] as string).split(', ')) bound.add(id);
  return new Set((code.match(LOCAL) ?? []).filter((id) => !bound.has(id)));
}

export class ExprCompiler {
  /**
   * While a rule compiles: node sequences computed more than once from the rule's context (CEN's
   * syntax rule walks `(cac:InvoiceLine|cac:CreditNoteLine)/...` 131 times) are kept in per-rule
   * variables, computed on first use. Paths have no side effects and their errors do not depend on
   * when they are computed, so this changes no result.
   */
  memo: Map<string, string> | null = null;

  /**
   * Closure parameters standing for a value that depends only on the rule's context (the node of
   * `../../X[p]` bound once to test it for null), with that value's code: a memo key reads through them.
   */
  private readonly aliases = new Map<string, string>();

  constructor(
    private readonly m: ModuleBuilder,
    private readonly env: Environment,
  ) {}

  /**
   * Code with the memo variable, when `g` is a node sequence depending only on the rule's context. A
   * path with predicates counts too when its closures use only their own parameters: CEN's document
   * rule filters `//cac:AllowanceCharge[cbc:ChargeIndicator = false()]/cac:TaxCategory` in 30 asserts.
   */
  private memoize(g: G): G {
    if (!this.memo || g.kind !== 'node' || g.card !== 'many' || !g.c.startsWith('R.')) return g;
    const name = this.memoName(g.c);
    if (name === null) return g; // closure parameters or locals of an enclosing scope
    return { c: `(${name} ??= ${g.c})`, card: g.card, kind: g.kind };
  }

  /** The per-rule variable for a node sequence's code, or null when its value depends on more than the rule's context. */
  private memoName(code: string): string | null {
    const key = this.memoKey(code);
    if (key === null || !this.memo) return null;
    let name = this.memo.get(key);
    if (!name) {
      name = this.m.fresh('m');
      this.memo.set(key, name);
    }
    return name;
  }

  private memoKey(code: string): string | null {
    if (!this.memo) return null;
    return closedForm(this.aliases.size === 0 ? code : code.replace(/\bo\d+\b/g, (id) => this.aliases.get(id) ?? id));
  }

  // ---------------------------------------------------------------- conversions

  seq(g: G): string {
    if (g.card === 'many') return g.c;
    if (g.card === 'one') return `[${g.c}]`;
    return `R.optToSeq(${g.c})`;
  }

  opt(g: G): string {
    return g.card === 'many' ? `R.opt(${g.c})` : g.c;
  }

  atomSeq(g: G): G {
    const kind = atomizedKind(g.kind);
    if (g.kind !== 'node' && g.kind !== 'item') return { c: this.seq(g), card: 'many', kind };
    if (g.card === 'one') return { c: `[R.atom(${g.c})]`, card: 'many', kind };
    return { c: `R.atomize(${this.seq(g)})`, card: 'many', kind };
  }

  atomOpt(g: G): G {
    const kind = atomizedKind(g.kind);
    const card: Card = g.card === 'one' ? 'one' : 'opt';
    if (g.kind === 'node') return { c: g.card === 'one' ? `R.typed(${g.c})` : `R.atomOpt(${this.opt(g)})`, card, kind };
    if (g.kind === 'item') return { c: g.card === 'one' ? `R.atom(${g.c})` : `R.atomOpt(${this.opt(g)})`, card, kind };
    return { c: this.opt(g), card, kind };
  }

  /**
   * Key values (xsl:key's use, key()'s search values): atomized, compared as strings. A type that is
   * known not to be a string is not translated; an unexpected one at run time is refused (R.keyString).
   */
  keyValues(g: G): G {
    const a = this.atomSeq(g);
    if (a.kind !== 'string' && a.kind !== 'untyped' && a.kind !== 'atomic') throw new CompileError(`key values of type ${a.kind}`);
    return a;
  }

  ebv(g: G): string {
    if (g.empty) return 'false';
    if (g.kind === 'boolean' && g.card === 'one') return g.c;
    if (g.kind === 'boolean' && g.card === 'opt') return `(${g.c} === true)`;
    if (g.kind === 'node') {
      if (g.card === 'many') return this.nonEmpty(g);
      if (g.card === 'opt') return `(${g.c} !== null)`;
      return `R.ebvItem(${g.c})`;
    }
    if (g.kind === 'string' && g.card === 'one') return `(${g.c}.length > 0)`;
    return g.card === 'many' ? `R.ebv(${g.c})` : `R.ebvItem(${g.c})`;
  }

  /** `exists()` of a node sequence; a filtered one stops at the first node that passes. */
  nonEmpty(g: G): string {
    if (g.filtered) return `R.anyPasses(${g.filtered.base}, ${g.filtered.preds.join(', ')})`;
    return `(${g.c}.length > 0)`;
  }

  /** A `xs:string?` argument as a JavaScript string ('' for the empty sequence). */
  strE(g: G): string {
    if (g.empty) return "''";
    if (g.kind === 'string') return g.card === 'one' ? g.c : `R.strArgE(${this.opt(g)})`;
    if (g.kind === 'node' && g.card === 'one') return `R.sv(${g.c})`;
    if (g.kind === 'untyped' && g.card === 'one') return `${g.c}.s`;
    return `R.strArgE(${this.opt(g)})`; // other types: a type error when (and only if) evaluated
  }

  /** A required `xs:string` argument. */
  strR(g: G): string {
    if (g.kind === 'string' && g.card === 'one') return g.c;
    if (g.kind === 'node' && g.card === 'one') return `R.sv(${g.c})`;
    return `R.strArgR(${this.opt(g)})`;
  }

  /** A `xs:double` argument as a JavaScript number. */
  dbl(g: G): string {
    if (g.kind === 'integer' && g.card === 'one') return g.c;
    if (g.kind === 'double' && g.card === 'one') return `${g.c}.v`;
    return `R.dblArg(${this.opt(g)})`;
  }

  // Where a node is required but the value may not be one, the check happens at run time: SaxonJS
  // too raises such type errors only when the code runs (it may sit in a branch never taken).
  nodeOne(g: G): string {
    if (g.kind === 'node' && g.card === 'one') return g.c;
    return `R.oneNode(R.one(${this.seq(g)}))`;
  }

  nodeSeq(g: G): string {
    if (g.kind === 'node') return this.seq(g);
    return `R.nodes(${this.seq(g)})`;
  }

  nodeOpt(g: G): string {
    if (g.kind === 'node') return this.opt(g);
    return `((x) => x === null ? null : R.oneNode(x))(${this.opt(g)})`;
  }

  /**
   * The effective boolean value of an expression. A child or attribute step with no predicates from a
   * single node is a non-empty test that needs no sequence (`not(*)` on every element of a document).
   */
  genEbv(e: Expr, scope: Scope): string {
    const exists = this.existence(e, scope);
    return exists ?? this.ebv(this.gen(e, scope));
  }

  /** `exists(e)` without building the sequence, for the simple step shapes; null otherwise. */
  private existence(e: Expr, scope: Scope): string | null {
    let ctx: G;
    let step: Extract<Expr, { t: 'step' }>;
    if (e.t === 'step') {
      if (!scope.focus) return null;
      ctx = this.focusG(scope);
      step = e;
    } else if (e.t === 'path' && e.rhs.t === 'step') {
      if (ExprCompiler.isDescendantOrSelfNode(e.lhs)) return null;
      ctx = this.gen(e.lhs, scope);
      step = e.rhs;
    } else return null;
    if (step.preds.length > 0 || ctx.kind !== 'node' || ctx.card === 'many') return null;
    const node = ctx.card === 'one' ? ctx.c : null;
    const test = step.test;
    let check: string;
    if (step.axis === 'child' && this.isNameTest(test)) check = `R.hasChildNamed(x, ${js(test.uri)}, ${js(test.local)})`;
    else if (step.axis === 'child') check = `R.hasChild(x, ${this.testCode(test, 'child')})`;
    else if (step.axis === 'attribute' && this.isNameTest(test)) check = `(R.attribute(x, ${js(test.uri)}, ${js(test.local)}) !== null)`;
    else return null;
    if (node !== null) return check.replace(/\bx\b/, node);
    return `((x) => x !== null && ${check})(${ctx.c})`;
  }

  private focusOf(scope: Scope): Focus {
    if (!scope.focus) throw new CompileError('no context item');
    return scope.focus;
  }

  private focusG(scope: Scope): G {
    const f = this.focusOf(scope);
    return { c: f.c, card: 'one', kind: f.kind };
  }

  // ---------------------------------------------------------------- expressions

  gen(e: Expr, scope: Scope): G {
    switch (e.t) {
      case 'string':
        return { c: js(e.v), card: 'one', kind: 'string' };
      case 'integer': {
        const digits = e.v.replace(/^0+(?=\d)/, '');
        if (digits.length > 15) throw new CompileError(`integer literal ${e.v} is too large`);
        return { c: String(Number(digits)), card: 'one', kind: 'integer' };
      }
      case 'decimal':
        parseDecimal(e.v);
        return { c: this.m.constant(`R.parseDecimal(${js(e.v)})`), card: 'one', kind: 'decimal' };
      case 'double':
        return { c: this.m.constant(`new R.XDouble(${Number(e.v)})`), card: 'one', kind: 'double' };
      case 'var': {
        const local = scope.vars.get(e.name);
        if (local) return local;
        const global = this.env.global(e.name);
        if (global) return global;
        throw new CompileError(`unknown variable $${e.name}`);
      }
      case 'context':
        return this.focusG(scope);
      case 'root':
        return { c: `R.root(${this.nodeOne(this.focusG(scope))})`, card: 'one', kind: 'node' };
      case 'path':
        return this.memoize(this.path(e.lhs, e.rhs, scope));
      case 'step':
        return this.stepFrom(this.focusG(scope), e, scope);
      case 'filter':
        return this.filter(this.gen(e.base, scope), e.preds, scope);
      case 'call':
        return this.call(e.name, e.args, scope);
      case 'binary':
        return this.binary(e.op, e.l, e.r, scope);
      case 'unary': {
        const a = this.atomOpt(this.gen(e.e, scope));
        const kind: SK = a.kind === 'untyped' ? 'double' : NUMERIC.has(a.kind) ? a.kind : 'numeric';
        return { c: `R.${e.op === '-' ? 'neg' : 'pos'}(${a.c})`, card: a.card === 'one' ? 'one' : 'opt', kind };
      }
      case 'if': {
        const cond = this.genEbv(e.cond, scope);
        const a = this.gen(e.then, scope);
        const b = this.gen(e.else, scope);
        const kind = mergeKind(a, b);
        if (a.card === b.card && !a.empty && !b.empty) return { c: `(${cond} ? ${a.c} : ${b.c})`, card: a.card, kind };
        if (a.card !== 'many' && b.card !== 'many') {
          return { c: `(${cond} ? ${a.empty ? 'null' : a.c} : ${b.empty ? 'null' : b.c})`, card: 'opt', kind };
        }
        return { c: `(${cond} ? ${this.seq(a)} : ${this.seq(b)})`, card: 'many', kind };
      }
      case 'for': {
        const input = this.gen(e.in, scope);
        if (input.card === 'one') {
          const v1 = this.m.fresh('v');
          const body1 = this.gen(e.ret, this.bind(scope, e.name, { c: v1, card: 'one', kind: input.kind }));
          return { c: `((${v1}) => ${this.seq(body1)})(${input.c})`, card: 'many', kind: body1.kind };
        }
        const v = this.m.fresh('v');
        const body = this.gen(e.ret, this.bind(scope, e.name, { c: v, card: 'one', kind: input.kind }));
        return { c: `R.flatMap(${this.seq(input)}, (${v}) => ${this.seq(body)})`, card: 'many', kind: body.kind };
      }
      case 'let': {
        const value = this.gen(e.value, scope);
        const v = this.m.fresh('v');
        const body = this.gen(e.ret, this.bind(scope, e.name, { ...value, c: v }));
        return { c: `((${v}) => ${body.c})(${value.c})`, card: body.card, kind: body.kind, ...(body.empty ? { empty: true } : {}) };
      }
      case 'quantified': {
        const input = this.gen(e.in, scope);
        const v = this.m.fresh('v');
        const sat = this.genEbv(e.sat, this.bind(scope, e.name, { c: v, card: 'one', kind: input.kind }));
        return { c: `R.${e.every ? 'every' : 'some'}(${this.seq(input)}, (${v}) => ${sat})`, card: 'one', kind: 'boolean' };
      }
      case 'sequence': {
        if (e.items.length === 0) return { c: '[]', card: 'many', kind: 'item', empty: true };
        const items = e.items.map((i) => this.gen(i, scope));
        const kind = items.reduce<G>((acc, g) => ({ ...g, kind: mergeKind(acc, g) }), items[0] as G).kind;
        if (items.length === 1) return items[0] as G;
        return { c: `R.concat([${items.map((g) => this.seq(g)).join(', ')}])`, card: 'many', kind };
      }
      case 'instance': {
        const g = this.gen(e.e, scope);
        return { c: `R.instanceOf(${this.seq(g)}, ${js(this.instanceKey(e.type))}, ${js(e.type.occ)})`, card: 'one', kind: 'boolean' };
      }
      case 'treat':
        throw new CompileError('treat as is not supported');
      case 'castable': {
        const g = this.atomSeq(this.gen(e.e, scope));
        return { c: `R.castableTo(${g.c}, ${js(e.type)}, ${e.optional})`, card: 'one', kind: 'boolean' };
      }
      case 'cast': {
        const g = this.atomOpt(this.gen(e.e, scope));
        return { c: `R.castTo(${g.c}, ${js(e.type)}, ${e.optional})`, card: g.card === 'one' ? 'one' : 'opt', kind: TYPE_KIND[e.type] ?? 'atomic' };
      }
      case 'map': {
        const input = this.gen(e.l, scope);
        const [c, p, z] = [this.m.fresh('c'), this.m.fresh('p'), this.m.fresh('z')];
        const body = this.gen(e.r, { vars: scope.vars, focus: { c, p, z, kind: input.kind } });
        return { c: `R.simpleMap(${this.seq(input)}, (${c}, ${p}, ${z}) => ${this.seq(body)})`, card: 'many', kind: body.kind };
      }
    }
  }

  bind(scope: Scope, name: string, g: G): Scope {
    const vars = new Map(scope.vars);
    vars.set(name, g);
    return { vars, focus: scope.focus };
  }

  private instanceKey(t: SequenceType): string {
    const item = t.item;
    if (item === null) throw new CompileError('instance of empty-sequence()');
    if (item.kind === 'item') return 'item';
    if (item.kind === 'atomic') return item.type;
    const test = item.test;
    if (test.kind === 'node') return 'node';
    if ((test.kind === 'element' || test.kind === 'attribute') && test.local === null && test.uri === null) return test.kind;
    if (test.kind === 'text' || test.kind === 'document') return test.kind;
    throw new CompileError('instance of a named kind test');
  }

  // ---------------------------------------------------------------- paths

  testCode(test: NodeTest, axis: Axis): string {
    switch (test.kind) {
      case 'name': {
        const kind = axis === 'attribute' ? Kind.Attribute : Kind.Element;
        return this.m.constant(`R.nameTest(${test.uri === null ? 'null' : js(test.uri)}, ${test.local === null ? 'null' : js(test.local)}, ${kind})`);
      }
      case 'element':
        return this.m.constant(`R.nameTest(${test.uri === null ? 'null' : js(test.uri)}, ${test.local === null ? 'null' : js(test.local)}, ${Kind.Element})`);
      case 'attribute':
        return this.m.constant(`R.nameTest(${test.uri === null ? 'null' : js(test.uri)}, ${test.local === null ? 'null' : js(test.local)}, ${Kind.Attribute})`);
      case 'node':
        return 'R.anyNode';
      case 'text':
        return 'R.textTest';
      case 'comment':
        return 'R.commentTest';
      case 'document':
        return 'R.documentTest';
      case 'pi':
        return this.m.constant(`R.piTest(${test.target === null ? 'null' : js(test.target)})`);
    }
  }

  /** A predicate as a `(c, p, z) => boolean` closure; `positional` when its value may be a number or it uses position()/last(). */
  predicate(pred: Expr, scope: Scope, itemKind: SK): { code: string; positional: boolean } {
    const [c, p, z] = [this.m.fresh('c'), this.m.fresh('p'), this.m.fresh('z')];
    const focus: Focus = { c, p, z, kind: itemKind };
    const inner: Scope = { vars: scope.vars, focus };
    const g = this.gen(pred, inner);
    const numericish = NUMERIC.has(g.kind) || g.kind === 'atomic' || g.kind === 'item';
    const body = numericish ? `R.predicateTruth(${this.seq(g)}, ${p})` : this.genEbv(pred, inner);
    return { code: `(${c}, ${p}, ${z}) => ${body}`, positional: numericish || focus.usedPosition === true };
  }

  private isNameTest(test: NodeTest): test is { kind: 'name'; uri: string; local: string } {
    return test.kind === 'name' && test.uri !== null && test.local !== null;
  }

  /** One axis step from a context value (a node or nodes). */
  stepFrom(ctx: G, step: Extract<Expr, { t: 'step' }>, scope: Scope): G {
    if (ctx.card === 'opt' && ctx.kind === 'node') {
      // `..`/`@x` results: no sequence for the empty case
      const x = this.m.fresh('o');
      if (this.memoKey(ctx.c) !== null) this.aliases.set(x, `(${ctx.c})`); // x is the rule context's node: paths from it can be memoized
      const inner = this.stepFrom({ c: x, card: 'one', kind: 'node' }, step, scope);
      const none = inner.card === 'many' ? 'R.NONE' : 'null';
      return { c: `((${x}) => ${x} === null ? ${none} : ${inner.c})(${ctx.c})`, card: inner.card === 'one' ? 'opt' : inner.card, kind: 'node' };
    }
    const preds = step.preds.map((p) => this.predicate(p, scope, 'node'));
    const single = ctx.card === 'one';
    const from = single ? this.nodeOne(ctx) : this.nodeSeq(ctx);
    const test = step.test;
    if (step.axis === 'child' && this.isNameTest(test) && preds.every((p) => !p.positional)) {
      const base = `R.childrenNamed${single ? '' : 'Many'}(${from}, ${js(test.uri)}, ${js(test.local)})`;
      return this.filteredNodes(base, preds);
    }
    if (preds.length === 0 && this.isNameTest(test)) {
      if (step.axis === 'attribute') {
        if (single) return { c: `R.attribute(${from}, ${js(test.uri)}, ${js(test.local)})`, card: 'opt', kind: 'node' };
        return { c: `R.attributesMany(${from}, ${js(test.uri)}, ${js(test.local)})`, card: 'many', kind: 'node' };
      }
    }
    if (this.isNameTest(test) && (step.axis === 'descendant' || step.axis === 'descendant-or-self') && preds.every((p) => !p.positional)) {
      const base = `R.descendantsNamed${single ? '' : 'Many'}(S.doc, ${from}, ${js(test.uri)}, ${js(test.local)}, ${step.axis === 'descendant-or-self'})`;
      return this.filteredNodes(base, preds);
    }
    if (this.isNameTest(test) && (step.axis === 'preceding' || step.axis === 'following') && single) {
      const list = `R.${step.axis}Named(S.doc, ${from}, ${js(test.uri)}, ${js(test.local)})`;
      return { c: `R.stepOn(${list}, ${step.axis === 'preceding'}, [${preds.map((p) => p.code).join(', ')}])`, card: 'many', kind: 'node' };
    }
    if (step.axis === 'parent' && test.kind === 'node' && preds.length === 0 && single) {
      return { c: `${from}.parent`, card: 'opt', kind: 'node' };
    }
    if (step.axis === 'self' && preds.length === 0 && single) {
      return { c: `((x) => ${this.testCode(test, step.axis)}(x) ? x : null)(${from})`, card: 'opt', kind: 'node' };
    }
    const predList = `[${preds.map((p) => p.code).join(', ')}]`;
    return { c: `R.step${single ? '' : 'Many'}(${from}, ${js(step.axis)}, ${this.testCode(test, step.axis)}, ${predList})`, card: 'many', kind: 'node' };
  }

  /**
   * `base[p1][p2]...` of non-positional predicates. While a rule compiles, the longest prefix
   * `base[p1]..[pk]` whose value depends only on the rule's context is kept in a per-rule variable:
   * CEN's BR-S-08 and its siblings filter every line by VAT category (not depending on the loop
   * variable) and then by the rate of each subtotal (depending on it); the first filter then runs once.
   */
  private filteredNodes(base: string, preds: { code: string }[]): G {
    let k = 0;
    let prefix = base;
    while (k < preds.length) {
      const next = `R.filterBool(${prefix}, ${(preds[k] as { code: string }).code})`;
      if (this.memoKey(next) === null) break;
      prefix = next;
      k++;
    }
    if (k > 0) {
      base = this.nodeMemoized(prefix) ?? `(${this.memoName(prefix) as string} ??= ${prefix})`;
      preds = preds.slice(k);
    }
    const g: G = { c: this.applyBoolPreds(base, preds), card: 'many', kind: 'node' };
    if (preds.length > 0) g.filtered = { base, preds: preds.map((p) => p.code) };
    return g;
  }

  /**
   * A node sequence that depends on one node only (the node an alias stands for, or the root), kept
   * for the whole document under that node: BR-S-08 runs once per VAT breakdown, and each filters the
   * same `../../../cac:InvoiceLine` by the same category. Null when the code depends on more.
   */
  private nodeMemoized(code: string): string | null {
    const free = [...freeLocals(code)];
    let anchor: string;
    let body: string;
    if (free.length === 1 && this.aliases.has(free[0] as string) && !/\bc\b/.test(code)) {
      anchor = free[0] as string;
      body = code.replace(new RegExp(`\\b${anchor}\\b`, 'g'), '@anchor');
    } else if (free.length === 0 && code.includes('R.root(c)') && !/\bc\b/.test(code.replaceAll('R.root(c)', ''))) {
      anchor = 'R.root(c)';
      body = code.replaceAll('R.root(c)', '@anchor');
    } else return null;
    const key = closedForm(body);
    if (key === null) return null;
    const id = this.m.nodeMemo(key);
    return `(R.nodeMemoGet(S, ${id}, ${anchor}) ?? R.nodeMemoSet(S, ${id}, ${anchor}, ${code}))`;
  }

  /**
   * An atomic operand of a predicate's comparison that depends only on the predicate's node, while the
   * other operand depends on more (a loop variable, the rule's context): the predicate runs on the same
   * nodes again and again (BR-S-08 compares every line's `xs:decimal(cbc:Percent)` with each breakdown's
   * rate), so the operand is kept for the document under the node.
   */
  private perNode(g: G, other: G, scope: Scope): G {
    const f = scope.focus?.kind === 'node' ? scope.focus.c : undefined; // atomic items are no keys: equal values of different types
    if (!this.memo || f === undefined || !/^c\d+$/.test(f) || !ATOMIC.has(g.kind) || /\bc\b/.test(g.c)) return g;
    const free = freeLocals(g.c);
    if (free.size !== 1 || !free.has(f)) return g;
    const otherFree = freeLocals(other.c);
    if (!/\bc\b/.test(other.c) && [...otherFree].every((id) => id === f)) return g; // the whole comparison is per node
    const key = closedForm(g.c.replace(new RegExp(`\\b${f}\\b`, 'g'), '@anchor'));
    if (key === null) return g;
    const id = this.m.nodeMemo(`atomic ${key}`);
    return { ...g, c: `(R.nodeMemoGet(S, ${id}, ${f}) ?? R.nodeMemoSet(S, ${id}, ${f}, ${g.c}))` };
  }

  private applyBoolPreds(base: string, preds: { code: string }[]): string {
    let out = base;
    for (const p of preds) out = `R.filterBool(${out}, ${p.code})`;
    return out;
  }

  private static isDescendantOrSelfNode(e: Expr): e is Extract<Expr, { t: 'path' }> {
    return e.t === 'path' && e.rhs.t === 'step' && e.rhs.axis === 'descendant-or-self' && e.rhs.test.kind === 'node' && e.rhs.preds.length === 0;
  }

  /** True for an axis step or a union of them: E/(A|B) is then (E/A)|(E/B). */
  private static isStepUnion(e: Expr): boolean {
    return e.t === 'step' || (e.t === 'binary' && e.op === 'union' && ExprCompiler.isStepUnion(e.l) && ExprCompiler.isStepUnion(e.r));
  }

  private path(lhs: Expr, rhs: Expr, scope: Scope): G {
    // E//(A|B): (E//A) | (E//B), so that each part can use the indexes below
    if (rhs.t === 'binary' && rhs.op === 'union' && ExprCompiler.isStepUnion(rhs) && ExprCompiler.isDescendantOrSelfNode(lhs)) {
      return this.gen({ t: 'binary', op: 'union', l: { t: 'path', lhs, rhs: rhs.l }, r: { t: 'path', lhs, rhs: rhs.r } }, scope);
    }
    // E//name[non-positional] and E//@name: index lookups of E's descendants instead of a walk
    if (rhs.t === 'step' && (rhs.axis === 'child' || rhs.axis === 'attribute') && this.isNameTest(rhs.test) && ExprCompiler.isDescendantOrSelfNode(lhs)) {
      const preds = rhs.preds.map((p) => this.predicate(p, scope, 'node'));
      if (preds.every((p) => !p.positional)) {
        const base = this.gen(lhs.lhs, scope);
        const single = base.card === 'one';
        const from = single ? this.nodeOne(base) : this.nodeSeq(base);
        const code =
          rhs.axis === 'child'
            ? `R.descendantsNamed${single ? '' : 'Many'}(S.doc, ${from}, ${js(rhs.test.uri)}, ${js(rhs.test.local)}, false)`
            : `R.descendantAttributes${single ? '' : 'Many'}(S.doc, ${from}, ${js(rhs.test.uri)}, ${js(rhs.test.local)})`;
        return this.filteredNodes(code, preds);
      }
    }
    const left = this.gen(lhs, scope);
    if (rhs.t === 'step') return this.stepFrom(left, rhs, scope);
    if (rhs.t === 'context' && left.kind === 'node') return left; // E/. is E (nodes in document order)
    const [c, p, z] = [this.m.fresh('c'), this.m.fresh('p'), this.m.fresh('z')];
    const body = this.gen(rhs, { vars: scope.vars, focus: { c, p, z, kind: 'node' } });
    if (left.card === 'one' && body.kind !== 'node' && body.kind !== 'item') {
      // one context node and atomic results: no document-order sorting to do
      return { c: `((${c}, ${p}, ${z}) => ${body.c})(${this.nodeOne(left)}, 1, 1)`, card: body.card, kind: body.kind };
    }
    if (body.kind !== 'node' && body.kind !== 'item' && body.card !== 'many') {
      // one atomic (or none) per node: no per-node arrays, no sorting
      return { c: `R.mapAtomic(${this.nodeSeq(left)}, (${c}, ${p}, ${z}) => ${body.c})`, card: 'many', kind: body.kind };
    }
    const kind = body.kind === 'node' ? 'node' : body.kind;
    return { c: `R.mapPath(${this.nodeSeq(left)}, (${c}, ${p}, ${z}) => ${this.seq(body)})`, card: 'many', kind };
  }

  private filter(base: G, preds: Expr[], scope: Scope): G {
    let g = base;
    for (const pred of preds) {
      if (pred.t === 'integer') {
        g = { c: `R.at(${this.seq(g)}, ${Number(pred.v)})`, card: 'many', kind: g.kind };
        continue;
      }
      const p = this.predicate(pred, scope, g.kind);
      g = { c: `R.filterBool(${this.seq(g)}, ${p.code})`, card: 'many', kind: g.kind };
    }
    return g;
  }

  // ---------------------------------------------------------------- operators

  private binary(op: Extract<Expr, { t: 'binary' }>['op'], l: Expr, r: Expr, scope: Scope): G {
    switch (op) {
      case 'and':
        return { c: `(${this.genEbv(l, scope)} && ${this.genEbv(r, scope)})`, card: 'one', kind: 'boolean' };
      case 'or':
        return { c: `(${this.genEbv(l, scope)} || ${this.genEbv(r, scope)})`, card: 'one', kind: 'boolean' };
      case '=':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const a = this.gen(l, scope);
        const b = this.gen(r, scope);
        return this.generalComparison(op, this.perNode(a, b, scope), this.perNode(b, a, scope));
      }
      case 'eq':
      case 'ne':
      case 'lt':
      case 'le':
      case 'gt':
      case 'ge': {
        const sym = { eq: '=', ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=' }[op];
        const a = this.atomOpt(this.gen(l, scope));
        const b = this.atomOpt(this.gen(r, scope));
        const card: Card = a.card === 'one' && b.card === 'one' ? 'one' : 'opt';
        return { c: `R.valueCompare(${js(sym)}, ${a.c}, ${b.c})`, card, kind: 'boolean' };
      }
      case 'is':
      case '<<':
      case '>>': {
        const a = this.gen(l, scope);
        const b = this.gen(r, scope);
        return { c: `R.nodeCompare(${js(op)}, ${this.opt(a)}, ${this.opt(b)})`, card: 'opt', kind: 'boolean' };
      }
      case 'to': {
        const a = this.atomOpt(this.gen(l, scope));
        const b = this.atomOpt(this.gen(r, scope));
        return { c: `R.range(${a.c}, ${b.c})`, card: 'many', kind: 'integer' };
      }
      case '+':
      case '-':
      case '*':
      case 'div':
      case 'idiv':
      case 'mod':
        return this.arithmetic(op, this.atomOpt(this.gen(l, scope)), this.atomOpt(this.gen(r, scope)));
      case 'union':
      case 'intersect':
      case 'except': {
        const a = this.gen(l, scope);
        const b = this.gen(r, scope);
        return this.memoize({ c: `R.${op}(${this.seq(a)}, ${this.seq(b)})`, card: 'many', kind: 'node' });
      }
      case '||': {
        const a = this.atomOpt(this.gen(l, scope));
        const b = this.atomOpt(this.gen(r, scope));
        return { c: `R.concatStrings([${a.c}, ${b.c}])`, card: 'one', kind: 'string' };
      }
    }
  }

  private arithmetic(op: '+' | '-' | '*' | 'div' | 'idiv' | 'mod', a: G, b: G): G {
    const card: Card = a.card === 'one' && b.card === 'one' ? 'one' : 'opt';
    const ka = a.kind === 'untyped' ? 'double' : a.kind;
    const kb = b.kind === 'untyped' ? 'double' : b.kind;
    let kind: SK = 'numeric';
    if (ka === 'double' || kb === 'double') kind = 'double';
    else if (ka === 'integer' && kb === 'integer') kind = op === 'div' ? 'decimal' : 'integer';
    else if ((ka === 'integer' || ka === 'decimal') && (kb === 'integer' || kb === 'decimal')) kind = op === 'idiv' ? 'integer' : 'decimal';
    if (card === 'one' && a.kind === 'integer' && b.kind === 'integer' && (op === '+' || op === '-' || op === '*')) {
      return { c: `R.checkInteger(${a.c} ${op} ${b.c})`, card, kind: 'integer' };
    }
    return { c: `R.arithmetic(${js(op)}, ${a.c}, ${b.c})`, card, kind };
  }

  private stringish(g: G): boolean {
    return g.kind === 'string' || g.kind === 'untyped' || g.kind === 'node';
  }

  private generalComparison(op: '=' | '!=' | '<' | '<=' | '>' | '>=', l: G, r: G): G {
    const result = (c: string): G => ({ c, card: 'one', kind: 'boolean' });
    if ((op === '=' || op === '!=') && this.stringish(l) && this.stringish(r)) {
      // untypedAtomic against a string or untypedAtomic compares as strings: no conversion, no errors
      const jsop = op === '=' ? '===' : '!==';
      if (l.card === 'one' && r.card === 'one') return result(`(${this.strE(l)} ${jsop} ${this.strE(r)})`);
      if (r.card === 'one' && r.kind === 'string' && l.kind === 'node') {
        return result(`R.nodes${op === '=' ? 'Eq' : 'Ne'}String(${this.seq(l)}, ${r.c})`);
      }
      if (l.card === 'one' && l.kind === 'string' && r.kind === 'node') {
        return result(`R.nodes${op === '=' ? 'Eq' : 'Ne'}String(${this.seq(r)}, ${l.c})`);
      }
    }
    if (l.card === 'one' && r.card === 'one') {
      const a = this.atomOpt(l);
      const b = this.atomOpt(r);
      if (a.kind === 'integer' && b.kind === 'integer') return result(`(${a.c} ${op === '=' ? '===' : op === '!=' ? '!==' : op} ${b.c})`);
      if (a.kind === 'boolean' && b.kind === 'boolean' && (op === '=' || op === '!=')) return result(`(${a.c} ${op === '=' ? '===' : '!=='} ${b.c})`);
      return result(`R.generalPair(${js(op)}, ${a.c}, ${b.c})`);
    }
    if (l.card !== 'many' && r.card !== 'many') {
      return result(`R.generalPairOpt(${js(op)}, ${this.atomOpt(l).c}, ${this.atomOpt(r).c})`);
    }
    if (l.kind === 'node' && r.card !== 'many') return result(`R.nodesCompare(${js(op)}, ${l.c}, ${this.atomOpt(r).c}, false)`);
    if (r.kind === 'node' && l.card !== 'many') return result(`R.nodesCompare(${js(op)}, ${r.c}, ${this.atomOpt(l).c}, true)`);
    return result(`R.generalCompare(${js(op)}, ${this.atomSeq(l).c}, ${this.atomSeq(r).c})`);
  }

  // ---------------------------------------------------------------- functions

  private call(name: string, args: Expr[], scope: Scope): G {
    const user = this.env.userFunction(name, args.length);
    if (user) {
      const argCode = args.map((a) => this.seq(this.gen(a, scope)));
      return { c: `${user.js}(S${argCode.map((a) => `, ${a}`).join('')})`, card: user.result.card, kind: user.result.kind };
    }
    const fn = name.startsWith(`Q{${FN_NS}}`) ? name.slice(FN_NS.length + 3) : null;
    const xs = name.startsWith(`Q{${XS_NS}}`) ? name.slice(XS_NS.length + 3) : null;
    if (xs !== null) return this.constructorCall(xs, args, scope);
    if (name === eqName('urn:sk-einvoicing:validation', 'mod97') && args.length === 1) {
      return { c: `R.mod97(${this.strR(this.gen(args[0] as Expr, scope))})`, card: 'one', kind: 'integer' };
    }
    if (fn === null) throw new CompileError(`unknown function ${name}`);
    const a = (k: number): G => this.gen(args[k] as Expr, scope);
    const arity = (...allowed: number[]): void => {
      if (!allowed.includes(args.length)) throw new CompileError(`fn:${fn} with ${args.length} arguments`);
    };
    const B = (c: string): G => ({ c, card: 'one', kind: 'boolean' });
    const Str = (c: string): G => ({ c, card: 'one', kind: 'string' });
    const I = (c: string): G => ({ c, card: 'one', kind: 'integer' });
    const contextString = (): string => `R.str(${this.focusG(scope).c})`;
    switch (fn) {
      case 'true':
        arity(0);
        return B('true');
      case 'false':
        arity(0);
        return B('false');
      case 'not':
        arity(1);
        return B(`!${this.genEbv(args[0] as Expr, scope)}`);
      case 'boolean':
        arity(1);
        return B(this.genEbv(args[0] as Expr, scope));
      case 'exists':
      case 'empty': {
        arity(1);
        const quick = this.existence(args[0] as Expr, scope);
        if (quick !== null) return B(fn === 'exists' ? quick : `!${quick}`);
        const g = a(0);
        const test = g.card === 'many' ? (g.kind === 'node' ? this.nonEmpty(g) : `(${g.c}.length > 0)`) : g.card === 'opt' ? `(${g.c} !== null)` : `((${g.c}), true)`;
        return B(fn === 'exists' ? test : `!${test}`);
      }
      case 'count': {
        arity(1);
        const g = a(0);
        return I(g.card === 'many' ? `${g.c}.length` : g.card === 'opt' ? `(${g.c} === null ? 0 : 1)` : `((${g.c}), 1)`);
      }
      case 'normalize-space':
        arity(0, 1);
        return Str(`R.normalizeSpace(${args.length === 0 ? contextString() : this.strE(a(0))})`);
      case 'string-length':
        arity(0, 1);
        return I(`R.stringLength(${args.length === 0 ? contextString() : this.strE(a(0))})`);
      case 'upper-case':
        arity(1);
        return Str(`R.upperCase(${this.strE(a(0))})`);
      case 'lower-case':
        arity(1);
        return Str(`R.lowerCase(${this.strE(a(0))})`);
      case 'substring':
        arity(2, 3);
        return Str(`R.substring(${this.strE(a(0))}, ${this.dbl(a(1))}${args.length === 3 ? `, ${this.dbl(a(2))}` : ''})`);
      case 'substring-before':
        arity(2);
        return Str(`R.substringBefore(${this.strE(a(0))}, ${this.strE(a(1))})`);
      case 'substring-after':
        arity(2);
        return Str(`R.substringAfter(${this.strE(a(0))}, ${this.strE(a(1))})`);
      case 'contains': {
        arity(2);
        const listed = this.spacedList(args[0] as Expr, args[1] as Expr, scope);
        if (listed !== null) return B(listed);
        return B(`${this.strE(a(0))}.includes(${this.strE(a(1))})`);
      }
      case 'starts-with':
        arity(2);
        return B(`${this.strE(a(0))}.startsWith(${this.strE(a(1))})`);
      case 'ends-with':
        arity(2);
        return B(`${this.strE(a(0))}.endsWith(${this.strE(a(1))})`);
      case 'concat': {
        if (args.length < 2) throw new CompileError('concat needs two arguments');
        const parts = args.map((x) => this.gen(x, scope));
        if (parts.every((g) => g.kind === 'string' && g.card === 'one')) return Str(`(${parts.map((g) => g.c).join(' + ')})`);
        return Str(`R.concatStrings([${parts.map((g) => this.opt(g)).join(', ')}])`);
      }
      case 'string-join':
        arity(1, 2);
        return Str(`R.stringJoin(${this.seq(a(0))}, ${args.length === 2 ? this.strR(a(1)) : "''"})`);
      case 'translate':
        arity(3);
        return Str(`R.translate(${this.strE(a(0))}, ${this.strR(a(1))}, ${this.strR(a(2))})`);
      case 'matches':
      case 'replace':
      case 'tokenize':
        return this.regexCall(fn, args, scope);
      case 'string': {
        arity(0, 1);
        if (args.length === 0) return Str(contextString());
        const g = a(0);
        if (g.kind === 'node' && g.card === 'one') return Str(`R.sv(${g.c})`);
        if (g.kind === 'string' && g.card === 'one') return g;
        return Str(`R.str(${this.opt(g)})`);
      }
      case 'number':
        arity(0, 1);
        return { c: `R.number(${args.length === 0 ? this.focusG(scope).c : this.opt(a(0))})`, card: 'one', kind: 'double' };
      case 'sum': {
        arity(1, 2);
        const g = this.atomSeq(a(0));
        if (args.length === 2) {
          const zero = this.atomOpt(a(1));
          return { c: `R.sum(${g.c}, ${zero.c})`, card: 'opt', kind: 'numeric' };
        }
        return { c: `R.sum(${g.c})`, card: 'one', kind: g.kind === 'integer' ? 'integer' : 'numeric' };
      }
      case 'avg':
        arity(1);
        return { c: `R.avg(${this.seq(a(0))})`, card: 'opt', kind: 'numeric' };
      case 'min':
      case 'max':
        arity(1);
        return { c: `R.minMax(${this.seq(a(0))}, ${fn === 'max'})`, card: 'opt', kind: 'atomic' };
      case 'abs':
      case 'round':
      case 'floor':
      case 'ceiling':
      case 'round-half-to-even': {
        arity(1);
        const g = this.atomOpt(a(0));
        const kind: SK = g.kind === 'untyped' ? 'double' : NUMERIC.has(g.kind) ? g.kind : 'numeric';
        const f = fn === 'round-half-to-even' ? 'roundHalfToEven' : fn;
        return { c: `R.${f}(R.numArg(${g.c}))`, card: g.card === 'one' ? 'one' : 'opt', kind };
      }
      case 'string-to-codepoints':
        arity(1);
        return { c: `R.stringToCodepoints(${this.strE(a(0))})`, card: 'many', kind: 'integer' };
      case 'codepoints-to-string':
        arity(1);
        return Str(`R.codepointsToString(${this.seq(a(0))})`);
      case 'name':
      case 'local-name':
      case 'namespace-uri': {
        arity(0, 1);
        const node = args.length === 0 ? this.nodeOne(this.focusG(scope)) : this.nodeOpt(a(0));
        const f = fn === 'name' ? 'name' : fn === 'local-name' ? 'localName' : 'namespaceUri';
        return Str(`R.${f}(${node})`);
      }
      case 'reverse': {
        arity(1);
        const g = a(0);
        return { c: `R.reverse(${this.seq(g)})`, card: 'many', kind: g.kind };
      }
      case 'subsequence': {
        arity(2, 3);
        const g = a(0);
        return { c: `R.subsequence(${this.seq(g)}, ${this.dbl(a(1))}${args.length === 3 ? `, ${this.dbl(a(2))}` : ''})`, card: 'many', kind: g.kind };
      }
      case 'distinct-values':
        arity(1);
        return { c: `R.distinctValues(${this.seq(a(0))})`, card: 'many', kind: 'atomic' };
      case 'position': {
        arity(0);
        const f = this.focusOf(scope);
        if (f.p === null) throw new CompileError('position() without a known focus');
        f.usedPosition = true;
        return I(f.p);
      }
      case 'last': {
        arity(0);
        const f = this.focusOf(scope);
        if (f.z === null) throw new CompileError('last() without a known focus');
        f.usedPosition = true;
        return I(f.z);
      }
      case 'data':
        arity(1);
        return this.atomSeq(a(0));
      case 'root':
        arity(0, 1);
        return { c: `R.root(${args.length === 0 ? this.nodeOne(this.focusG(scope)) : this.nodeOne(a(0))})`, card: 'one', kind: 'node' };
      case 'key': {
        arity(2); // the third argument (a subtree) is not translated
        const nameArg = args[0] as Expr;
        if (nameArg.t !== 'string') throw new CompileError('key() with a computed name');
        const index = this.env.key(nameArg.v);
        if (index === undefined) throw new CompileError(`no key named ${nameArg.v}`);
        const values = a(1);
        const context = this.nodeOne(this.focusG(scope));
        if (values.card === 'one' && values.kind === 'string') return { c: `R.keyOne(S, ${index}, ${context}, ${values.c})`, card: 'many', kind: 'node' };
        return { c: `R.key(S, ${index}, ${context}, ${this.keyValues(values).c})`, card: 'many', kind: 'node' };
      }
      case 'exactly-one':
      case 'zero-or-one':
      case 'one-or-more': {
        arity(1);
        const g = a(0);
        const f = fn === 'exactly-one' ? 'exactlyOne' : fn === 'zero-or-one' ? 'zeroOrOne' : 'oneOrMore';
        return { c: `R.${f}(${this.seq(g)})`, card: 'many', kind: g.kind };
      }
      default:
        throw new CompileError(`fn:${fn} is not supported`);
    }
  }

  /**
   * `contains(' A B C ', concat(' ', $s, ' '))`, the code-list test of CEN and Peppol (hundreds of
   * codes, on every amount's currency and every quantity's unit): a set lookup when $s has no space,
   * which is the same answer (the codes are the stretches between two spaces). Null for other shapes.
   */
  private spacedList(list: Expr, probe: Expr, scope: Scope): string | null {
    if (list.t !== 'string' || probe.t !== 'call' || probe.name !== `Q{${FN_NS}}concat` || probe.args.length !== 3) return null;
    const [open, middle, close] = probe.args as [Expr, Expr, Expr];
    if (open.t !== 'string' || open.v !== ' ' || close.t !== 'string' || close.v !== ' ') return null;
    const g = this.gen(middle, scope);
    if (g.kind !== 'string' || g.card !== 'one') return null;
    return `R.spacedIn(${this.m.constant(`R.spacedTokens(${js(list.v)})`)}, ${g.c})`;
  }

  private constructorCall(type: string, args: Expr[], scope: Scope): G {
    if (args.length !== 1) throw new CompileError(`xs:${type} with ${args.length} arguments`);
    const kind = TYPE_KIND[type];
    if (!kind || type === 'anyAtomicType' || type === 'numeric') throw new CompileError(`xs:${type}() is not supported`);
    const arg = this.gen(args[0] as Expr, scope);
    if (type === 'string' && arg.kind === 'node' && arg.card === 'one') return { c: `R.sv(${arg.c})`, card: 'one', kind: 'string' };
    const g = this.atomOpt(arg);
    return { c: `R.castTo(${g.c}, ${js(type)}, true)`, card: g.card === 'one' ? 'one' : 'opt', kind };
  }

  private regexCall(fn: 'matches' | 'replace' | 'tokenize', args: Expr[], scope: Scope): G {
    const min = fn === 'replace' ? 3 : fn === 'tokenize' ? 1 : 2;
    const max = fn === 'tokenize' ? 3 : min + 1; // tokenize(input), (input, pattern), (input, pattern, flags)
    if (args.length < min || args.length > max) throw new CompileError(`fn:${fn} with ${args.length} arguments`);
    const input = this.strE(this.gen(args[0] as Expr, scope));
    if (fn === 'tokenize' && args.length === 1) return { c: `R.tokenize1(${input})`, card: 'many', kind: 'string' };
    const patternExpr = args[1] as Expr;
    const flagsIndex = fn === 'replace' ? 3 : 2;
    const flagsExpr = args[flagsIndex];
    let flags = "''";
    if (flagsExpr) {
      if (flagsExpr.t !== 'string') throw new CompileError('regex flags must be a literal');
      flags = js(flagsExpr.v);
      if (!supportedRegexFlags(flagsExpr.v)) throw new CompileError(`regex flags ${flagsExpr.v}`);
    }
    let pattern: string;
    if (patternExpr.t === 'string') {
      xpathRegex(patternExpr.v, flagsExpr?.t === 'string' ? flagsExpr.v : ''); // translate now: an untranslatable literal pattern makes the rule fall back
      pattern = js(patternExpr.v);
    } else pattern = this.strR(this.gen(patternExpr, scope));
    if (fn === 'matches') return { c: `R.matches(${input}, ${pattern}, ${flags})`, card: 'one', kind: 'boolean' };
    if (fn === 'tokenize') return { c: `R.tokenize(${input}, ${pattern}, ${flags})`, card: 'many', kind: 'string' };
    const replacement = this.strR(this.gen(args[2] as Expr, scope));
    return { c: `R.replace(${input}, ${pattern}, ${replacement}, ${flags})`, card: 'one', kind: 'string' };
  }
}
