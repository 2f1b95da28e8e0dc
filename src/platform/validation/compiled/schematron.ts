// Schematron model -> one JavaScript module (source text) evaluating the whole rule set on a parsed
// document. Mirrors what the SaxonJS compilation (../schematron/compile.ts) does:
//  - schema- and pattern-level lets are globals, evaluated lazily against the document node;
//  - rule lets are locals, in order; asserts fire when false, reports when true;
//  - patterns run in order; within a pattern every candidate node, in document order, is given to the
//    first rule whose context matches it. The candidates are those SaxonJS visits: elements with the
//    local names of the rule contexts (keyed patterns), else the document node, every element and,
//    when a context can match one, every attribute;
//  - expressions get the exact mod 97 rewrite SaxonJS's compilation gets.
// A rule that cannot be translated exactly makes its pattern fall back: that pattern runs in SaxonJS.
import { eqName, type Expr } from './ast.ts';
import { CompileError, declaredType, ExprCompiler, ModuleBuilder, type Environment, type G, type Scope, type UserFunction } from './codegen.ts';
import { compileFunction, readDeclarations, ruleExpression, type FunctionDeclaration } from './functions.ts';
import { compileKey, keyName, type KeyDeclaration } from './keys.ts';
import { parseXPath, XPathSyntaxError } from './parser.ts';
import { Refusal, XPathError } from './values.ts';
import { candidateNames } from '../schematron/candidates.ts';
import { allChecks, ENGINE_NS, isDynamicMessage, normalizeSpace } from '../schematron/compile.ts';
import type { SchCheck, SchLet, SchRule, SchSchema } from '../schematron/model.ts';

/** Bumped whenever generated code changes meaning: part of the cache key. */
export const COMPILER_VERSION = 'compiled-1';

export interface PatternInfo {
  /** False when the pattern runs in SaxonJS. */
  compiled: boolean;
  /** Rules of this pattern that could not be translated, with the reason. */
  failures: { rule: number; context: string; reason: string }[];
}

export interface CompiledSchematron {
  /** Body of `new Function('R', source)`, returning the rule set's runtime description. */
  source: string;
  patterns: PatternInfo[];
  /** Number of rules that could not be translated (their patterns fall back). */
  fallbackRules: number;
  rules: number;
}

function isCompileProblem(err: unknown): err is Error {
  return err instanceof CompileError || err instanceof XPathSyntaxError || err instanceof Refusal || err instanceof XPathError;
}

/** Last-step local names of a pattern (for a quick prefilter); null when any element may match. */
function lastNames(e: Expr): string[] | null {
  switch (e.t) {
    case 'binary':
      if (e.op !== 'union') return null;
      {
        const a = lastNames(e.l);
        const b = lastNames(e.r);
        return a === null || b === null ? null : [...new Set([...a, ...b])];
      }
    case 'filter':
      return lastNames(e.base);
    case 'path':
      return lastNames(e.rhs);
    case 'step':
      return e.axis === 'child' && e.test.kind === 'name' && e.test.local !== null ? [e.test.local] : null;
    default:
      return null;
  }
}

/** True when a context may select attributes (the SaxonJS walk then visits them): as compile.ts decides. */
function mayMatchAttributes(context: string): boolean {
  return /(^|\/|\||\()\s*(@|attribute::)/.test(context);
}

class SetCompiler implements Environment {
  readonly m = new ModuleBuilder();
  readonly x: ExprCompiler;
  private readonly globals = new Map<string, { let: SchLet; index: number }>();
  private readonly globalTypes = new Map<string, G | CompileError | 'compiling'>();
  private readonly functions = new Map<string, FunctionDeclaration>();
  private readonly functionCode = new Map<string, UserFunction | CompileError>();
  private readonly functionError: CompileError | null;
  /** xsl:key declarations by expanded name (several of one name make one key), and their compiled index functions. */
  private readonly keys = new Map<string, KeyDeclaration[]>();
  private readonly keyCode = new Map<string, string | CompileError | 'compiling'>();
  readonly code: string[] = [];
  /** The rule file's prefixes plus the engine's own (skv:mod97 of the mod 97 rewrite). */
  private readonly namespaces: Map<string, string>;

  constructor(private readonly schema: SchSchema) {
    this.x = new ExprCompiler(this.m, this);
    this.namespaces = new Map([...schema.namespaces, ['skv', ENGINE_NS]]);
    const lets = [...schema.lets, ...schema.patterns.flatMap((p) => p.lets)];
    lets.forEach((l, index) => {
      if (this.globals.has(l.name)) throw new CompileError(`global $${l.name} declared twice`);
      this.globals.set(l.name, { let: l, index });
    });
    let functionError: CompileError | null = null;
    try {
      const declarations = readDeclarations(schema.xslDeclarations, schema.namespaces);
      for (const f of declarations.functions) this.functions.set(`${f.name}#${f.arity}`, f);
      for (const k of declarations.keys) this.keys.set(k.name, [...(this.keys.get(k.name) ?? []), k]);
    } catch (err) {
      if (!isCompileProblem(err)) throw err;
      functionError = new CompileError(`XSLT declarations: ${err.message}`);
    }
    this.functionError = functionError;
  }

  parse(s: string): Expr {
    return parseXPath(ruleExpression(s), { namespaces: this.namespaces });
  }

  global(name: string): G | undefined {
    const decl = this.globals.get(name);
    if (!decl) return undefined;
    const known = this.globalTypes.get(name);
    if (known === 'compiling') throw new CompileError(`circular global $${name}`);
    if (known instanceof CompileError) throw known;
    if (known) return known;
    this.globalTypes.set(name, 'compiling');
    const memo = this.x.memo; // a global is its own function: no per-rule memo variables in it
    this.x.memo = null;
    try {
      const focus = { c: 'S.root', kind: 'node' as const, p: '1', z: '1' };
      const g = this.x.gen(this.parse(decl.let.value), { vars: new Map(), focus });
      const fn = `g${decl.index}`;
      this.code.push(`function ${fn}(S) {\n  let v = S.g[${decl.index}];\n  if (v === undefined) {\n    v = ${g.c};\n    S.g[${decl.index}] = v;\n  }\n  return v;\n}`);
      const result: G = { c: `${fn}(S)`, card: g.card, kind: g.kind, ...(g.empty ? { empty: true } : {}) };
      this.globalTypes.set(name, result);
      return result;
    } catch (err) {
      if (!isCompileProblem(err)) throw err;
      const e = new CompileError(`global $${name}: ${err.message}`);
      this.globalTypes.set(name, e);
      throw e;
    } finally {
      this.x.memo = memo;
    }
  }

  userFunction(name: string, arity: number): UserFunction | undefined {
    const key = `${name}#${arity}`;
    const decl = this.functions.get(key);
    if (!decl) {
      if (this.functionError && !name.startsWith('Q{http://www.w3.org/')) throw this.functionError;
      return undefined;
    }
    const known = this.functionCode.get(key);
    if (known instanceof CompileError) throw known;
    if (known) return known;
    const js = this.m.fresh('F');
    const fn: UserFunction = { js, params: decl.params.map((p) => p.type), result: declaredType(decl.result) };
    this.functionCode.set(key, fn); // recursion sees the declaration
    const memo = this.x.memo;
    this.x.memo = null;
    try {
      this.code.push(compileFunction(decl, js, this.x, (p) => this.m.fresh(p), this.schema.namespaces));
      return fn;
    } catch (err) {
      if (!isCompileProblem(err)) throw err;
      const e = new CompileError(`function ${name}: ${err.message}`);
      this.functionCode.set(key, e);
      throw e;
    } finally {
      this.x.memo = memo;
    }
  }

  key(lexical: string): string | undefined {
    if (this.functionError) throw this.functionError;
    const name = keyName(lexical, this.namespaces);
    const decls = this.keys.get(name);
    if (!decls) return undefined;
    const known = this.keyCode.get(name);
    if (known === 'compiling') throw new CompileError(`key ${lexical} uses itself`);
    if (known instanceof CompileError) throw known;
    if (known) return known;
    this.keyCode.set(name, 'compiling');
    const memo = this.x.memo; // the index is its own function: no per-rule memo variables in it
    this.x.memo = null;
    try {
      const js = this.m.fresh('x');
      // declarations are not rewritten (mod 97) in the SaxonJS compilation either
      const parse = (s: string): Expr => parseXPath(s, { namespaces: this.schema.namespaces });
      const m = this.m;
      this.code.push(compileKey(decls, js, { x: this.x, fresh: (p) => m.fresh(p), nodeMemo: (k) => m.nodeMemo(k), parse, matcher: (p) => this.matcher(p), lastNames }));
      this.keyCode.set(name, js);
      return js;
    } catch (err) {
      if (!isCompileProblem(err)) throw err;
      const e = new CompileError(`key ${lexical}: ${err.message}`);
      this.keyCode.set(name, e);
      throw e;
    } finally {
      this.x.memo = memo;
    }
  }

  /** A matcher `(S, n) => boolean` for a rule context (an XSLT pattern). */
  matcher(pattern: Expr): string {
    const n = this.m.fresh('n');
    return `(S, ${n}) => ${this.match(pattern, n)}`;
  }

  private match(p: Expr, n: string): string {
    switch (p.t) {
      case 'binary':
        if (p.op !== 'union') throw new CompileError(`pattern operator ${p.op}`);
        return `(${this.match(p.l, n)} || ${this.match(p.r, n)})`;
      case 'filter': {
        // (A|B)[pred]: only non-positional predicates, evaluated with the node as context
        const conds = p.preds.map((pred) => {
          const compiled = this.x.predicate(pred, { vars: new Map(), focus: null }, 'node');
          if (compiled.positional) throw new CompileError('positional predicate on a parenthesized pattern');
          return `(${compiled.code})(${n}, 1, 1)`;
        });
        return `(${[this.match(p.base, n), ...conds].join(' && ')})`;
      }
      case 'root':
        return `(${n}.k === 9)`;
      case 'step':
        return `(${this.matchStep(p, n)} && ${n}.parent !== null)`;
      case 'path': {
        if (p.rhs.t !== 'step') throw new CompileError('pattern step is not an axis step');
        const here = this.matchStep(p.rhs, n);
        const parent = this.m.fresh('n');
        const lhs = p.lhs;
        // L//step: some ancestor of the node's parent (or the parent itself) matches L
        if (lhs.t === 'path' && lhs.rhs.t === 'step' && lhs.rhs.axis === 'descendant-or-self' && lhs.rhs.test.kind === 'node' && lhs.rhs.preds.length === 0) {
          if (lhs.lhs.t === 'root') return `(${here} && R.inDocument(${n}))`;
          return `(${here} && R.someAncestorOrSelf(${n}.parent, (${parent}) => ${this.match(lhs.lhs, parent)}))`;
        }
        if (lhs.t === 'root') return `(${here} && ${n}.parent !== null && ${n}.parent.k === 9)`;
        return `(${here} && ${n}.parent !== null && ((${parent}) => ${this.match(lhs, parent)})(${n}.parent))`;
      }
      default:
        throw new CompileError(`unsupported pattern (${p.t})`);
    }
  }

  private matchStep(step: Extract<Expr, { t: 'step' }>, n: string): string {
    if (step.axis !== 'child' && step.axis !== 'attribute') throw new CompileError(`pattern axis ${step.axis}`);
    const kindCheck = step.axis === 'attribute' ? `${n}.k === 2` : `${n}.k !== 2 && ${n}.k !== 9`;
    const test = `${this.x.testCode(step.test, step.axis)}(${n})`;
    if (step.preds.length === 0) return `(${kindCheck} && ${test})`;
    const preds = step.preds.map((pred) => this.x.predicate(pred, { vars: new Map(), focus: null }, 'node'));
    if (preds.every((p) => !p.positional)) {
      return `(${kindCheck} && ${test} && ${preds.map((p) => `(${p.code})(${n}, 1, 1)`).join(' && ')})`;
    }
    // positional: the node must be among those the step selects from its parent
    const stepCode = `R.step(${n}.parent, ${JSON.stringify(step.axis)}, ${this.x.testCode(step.test, step.axis)}, [${preds.map((p) => p.code).join(', ')}])`;
    return `(${kindCheck} && ${n}.parent !== null && ${stepCode}.includes(${n}))`;
  }

  /** `function rN(S, c)` running one rule's lets and checks on its context node. */
  rule(rule: SchRule, firstCheck: number, jsName: string): string {
    this.x.memo = new Map();
    try {
      const body = this.ruleBody(rule, firstCheck);
      const memo = [...this.x.memo.values()];
      return `function ${jsName}(S, c) {\n${memo.length > 0 ? `  let ${memo.join(', ')};\n` : ''}${body}\n}`;
    } finally {
      this.x.memo = null;
    }
  }

  private ruleBody(rule: SchRule, firstCheck: number): string {
    const lines: string[] = [];
    let scope: Scope = { vars: new Map(), focus: { c: 'c', kind: 'node', p: null, z: null } };
    for (const l of rule.lets) {
      const g = this.x.gen(this.parse(l.value), scope);
      const v = this.m.fresh('l');
      lines.push(`  const ${v} = ${g.c};`);
      scope = this.x.bind(scope, l.name, { ...g, c: v });
    }
    rule.checks.forEach((check, k) => {
      const test = this.x.genEbv(this.parse(check.test), scope);
      const message = isDynamicMessage(check.message) ? `, ${this.message(check, scope)}` : '';
      const fires = check.kind === 'assert' ? `!${test}` : test;
      lines.push(`  if (${fires}) S.f(${firstCheck + k}, c${message});`);
    });
    return lines.join('\n');
  }

  /** A dynamic message: normalize-space of its parts, value-of as space-separated strings. */
  private message(check: SchCheck, scope: Scope): string {
    const parts = check.message.map((p) => {
      if ('text' in p) return JSON.stringify(p.text);
      if ('select' in p) return `R.stringJoinStrings(${this.x.seq(this.x.gen(this.parse(p.select), scope))})`;
      const target = p.name === null ? { c: 'c', card: 'one' as const, kind: 'node' as const } : this.x.gen(this.parse(p.name), scope);
      return `R.name(${this.x.nodeOpt(target)})`;
    });
    return `R.normalizeSpace(${parts.join(' + ')})`;
  }
}

/** Compiles a schema; rules that cannot be translated are reported and their patterns fall back. */
export function compileSchematron(schema: SchSchema): CompiledSchematron {
  const sc = new SetCompiler(schema);
  const resolve = (prefix: string): string | undefined => schema.namespaces.get(prefix);
  const patterns: PatternInfo[] = [];
  const patternCode: string[] = [];
  let checkIndex = 0;
  let rules = 0;
  let fallbackRules = 0;
  schema.patterns.forEach((pattern) => {
    const info: PatternInfo = { compiled: true, failures: [] };
    const ruleEntries: string[] = [];
    const keyed = pattern.rules.every((r) => candidateNames(r.context, resolve) !== null);
    const names = keyed ? [...new Set(pattern.rules.flatMap((r) => candidateNames(r.context, resolve) ?? []).map((q) => q.replace(/^Q\{[^}]*\}/, '')))] : [];
    const attributes = !keyed && pattern.rules.some((r) => mayMatchAttributes(r.context));
    pattern.rules.forEach((rule, ri) => {
      rules++;
      const first = checkIndex;
      checkIndex += rule.checks.length;
      try {
        const ctx = sc.parse(rule.context);
        const matcher = sc.matcher(ctx);
        const name = sc.m.fresh('r');
        sc.code.push(sc.rule(rule, first, name));
        const ln = lastNames(ctx);
        ruleEntries.push(`{ names: ${ln === null ? 'null' : JSON.stringify(ln)}, match: ${matcher}, run: ${name} }`);
      } catch (err) {
        if (!isCompileProblem(err)) throw err;
        info.failures.push({ rule: ri, context: rule.context, reason: err.message });
      }
    });
    if (info.failures.length > 0) {
      info.compiled = false;
      fallbackRules += info.failures.length;
      patternCode.push('null');
    } else {
      patternCode.push(`{ keyed: ${keyed}, names: ${JSON.stringify(names)}, attributes: ${attributes}, rules: [\n    ${ruleEntries.join(',\n    ')}\n  ] }`);
    }
    patterns.push(info);
  });
  const source = [
    "'use strict';",
    ...sc.m.decls,
    ...sc.code,
    `return { globals: ${schema.lets.length + schema.patterns.reduce((n, p) => n + p.lets.length, 0)}, patterns: [\n  ${patternCode.join(',\n  ')}\n] };`,
  ].join('\n');
  return { source, patterns, fallbackRules, rules };
}

/** Static messages (normalized) per check index, for findings without a dynamic message. */
export function staticMessages(schema: SchSchema): string[] {
  return allChecks(schema).map((c) => normalizeSpace(c.message.map((p) => ('text' in p ? p.text : '')).join('')));
}

export { eqName };
