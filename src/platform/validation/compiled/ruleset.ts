// A rule set run by the compiled engine, with SaxonJS behind it:
//  - patterns the compiler could not translate run in SaxonJS (a SEF of just those patterns, compiled
//    at load and cached), their findings spliced in at their place;
//  - a document the compiled code cannot evaluate exactly (a dynamic error, whose finding SaxonJS
//    words; a value it refuses to guess; a document its parser does not take) is validated by the
//    whole rule set in SaxonJS. That SEF is loaded (or compiled) synchronously on first need.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as R from './runtime.ts';
import { compileSchematron, COMPILER_VERSION, staticMessages, type CompiledSchematron, type PatternInfo } from './schematron.ts';
import { Kind, locationPath, XmlTreeError, type XDocument, type XNode } from './tree.ts';
import { allChecks, compileToXslt } from '../schematron/compile.ts';
import type { SchCheck, SchSchema } from '../schematron/model.ts';
import { prepareSource, runSefIndexed, type IndexedFinding, type PreparedSource } from '../schematron/run.ts';
import { cachedSef, cachedSefSync, sha256 } from '../schematron/sef.ts';
import type { SefNode } from '../schematron/saxon.ts';
import type { Finding } from '../types.ts';

interface RuleEntry {
  names: string[] | null;
  match: (S: State, n: XNode) => boolean;
  run: (S: State, c: XNode) => void;
}

interface PatternEntry {
  keyed: boolean;
  names: string[];
  attributes: boolean;
  rules: RuleEntry[];
  /** The rules that can match a node of a local name, in order (filled on first use). */
  byName?: Map<string, RuleEntry[]>;
}

function rulesFor(p: PatternEntry, name: string): RuleEntry[] {
  const map = (p.byName ??= new Map());
  let rules = map.get(name);
  if (!rules) {
    rules = p.rules.filter((r) => r.names === null || r.names.includes(name));
    map.set(name, rules);
  }
  return rules;
}

interface CompiledModule {
  globals: number;
  patterns: (PatternEntry | null)[];
}

interface State {
  doc: XDocument;
  root: XNode;
  g: unknown[];
  /** Per-document memos (runtime nodeMemoGet). */
  nm: (Map<XNode, unknown> | undefined)[];
  f: (index: number, node: XNode, message?: string) => void;
}

/** What a compiled rule set reports about itself (bench, tests, docs). */
export interface CompiledStats {
  rules: number;
  /** Rules the compiler could not translate (each makes its pattern run in SaxonJS). */
  fallbackRules: number;
  patterns: PatternInfo[];
  /** Documents validated by SaxonJS because the compiled code could not be sure (counted per run). */
  dynamicFallbacks: number;
  /** Why the last dynamic fallback happened. */
  lastFallbackReason: string | null;
  /**
   * Fallbacks caused by something other than an XPath error, a refusal or a document the parser does
   * not take: a bug in the compiler or runtime. SaxonJS still answers, but tests require 0.
   */
  internalErrors: number;
}

export interface CompiledRuleSet<S extends string> {
  source: S;
  file: string;
  run(xml: string | PreparedSource): Finding<S>[];
  /** Parses what this engine needs, so the caller can time parsing apart. */
  prepare(xml: PreparedSource): void;
  readonly stats: CompiledStats;
}

/** Hash of the compiler's own code: generated modules are cached under it. */
let compilerHash: string | null = null;
function compilerFingerprint(): string {
  if (compilerHash === null) {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    const files = fs.readdirSync(dir).filter((f) => /\.(ts|js)$/.test(f)).sort();
    compilerHash = sha256(COMPILER_VERSION + files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\u0000'));
  }
  return compilerHash;
}

/** Compiles (or reads from the cache) the JavaScript of a rule set. */
function cachedCompile(cacheDir: string, name: string, sourceHash: string, schema: SchSchema): CompiledSchematron {
  const file = path.join(cacheDir, `${name}-${sourceHash.slice(0, 16)}-${compilerFingerprint().slice(0, 16)}.compiled.json`);
  if (fs.existsSync(file)) {
    try {
      const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as CompiledSchematron;
      try {
        const now = new Date();
        fs.utimesSync(file, now, now); // in use: not stale
      } catch {
        // a read-only cache still serves
      }
      return cached;
    } catch {
      // a damaged cache entry: compile again
    }
  }
  const compiled = compileSchematron(schema);
  fs.mkdirSync(cacheDir, { recursive: true });
  // entries of an older compiler for the same rule file go once unused for a week (the sources run by
  // tsx and the build in dist/ have different fingerprints, so both stay while both are used)
  const stale = `${name}-${sourceHash.slice(0, 16)}-`;
  const weekAgo = Date.now() - 7 * 24 * 3600_000;
  for (const f of fs.readdirSync(cacheDir)) {
    if (!f.startsWith(stale) || !f.endsWith('.compiled.json')) continue;
    const entry = path.join(cacheDir, f);
    if ((fs.statSync(entry, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < weekAgo) fs.rmSync(entry, { force: true });
  }
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(compiled));
  fs.renameSync(tmp, file);
  return compiled;
}

/**
 * Candidate nodes of each keyed pattern in document order: the elements with its rules' local names.
 * One pass over the elements fills the lists of every pattern (a pattern of one name takes the
 * parser's list as is).
 */
function candidates(doc: XDocument, patterns: readonly (PatternEntry | null)[], byName: Map<string, number[]>): XNode[][] {
  const out = patterns.map((p): XNode[] => (p?.keyed && p.names.length === 1 ? (doc.byLocal.get(p.names[0] as string) ?? []) : []));
  if (byName.size === 0) return out;
  const elements = doc.elements;
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i] as XNode;
    const ks = byName.get(el.n);
    if (ks !== undefined) for (let j = 0; j < ks.length; j++) (out[ks[j] as number] as XNode[]).push(el);
  }
  return out;
}

/** Local name -> the keyed patterns of several names that have a rule for it. */
function keyedByName(patterns: readonly (PatternEntry | null)[]): Map<string, number[]> {
  const byName = new Map<string, number[]>();
  patterns.forEach((p, k) => {
    if (!p?.keyed || p.names.length < 2) return;
    for (const n of new Set(p.names)) {
      const ks = byName.get(n);
      if (ks) ks.push(k);
      else byName.set(n, [k]);
    }
  });
  return byName;
}

/** Runs the first rule of the pattern that matches the node (a node is matched by one rule at most). */
function visit(p: PatternEntry, state: State, node: XNode): void {
  const rules = rulesFor(p, node.k === Kind.Element || node.k === Kind.Attribute ? node.n : '');
  for (let k = 0; k < rules.length; k++) {
    const rule = rules[k] as RuleEntry;
    if (rule.match(state, node)) {
      rule.run(state, node);
      return;
    }
  }
}

/** The sub-schema of the patterns that fall back, and for each of its checks the original pattern. */
function fallbackSchema(schema: SchSchema, patterns: PatternInfo[]): { schema: SchSchema; patternOfCheck: number[] } {
  const patternOfCheck: number[] = [];
  const kept = schema.patterns.filter((p, k) => {
    if (patterns[k]?.compiled !== false) return false;
    for (const r of p.rules) for (let c = 0; c < r.checks.length; c++) patternOfCheck.push(k);
    return true;
  });
  return { schema: { ...schema, patterns: kept }, patternOfCheck };
}

export async function loadCompiledRuleSet<S extends string>(file: string, source: S, cacheDir: string, schema: SchSchema, bytes: Uint8Array): Promise<CompiledRuleSet<S>> {
  const sourceHash = sha256(bytes);
  const compiled = cachedCompile(cacheDir, source, sourceHash, schema);
  const module = new Function('R', compiled.source)(R) as CompiledModule;
  const checks: SchCheck[] = allChecks(schema);
  const messages = staticMessages(schema);

  // patterns that could not be compiled run in SaxonJS, every document
  let partial: { sef: SefNode; checks: SchCheck[]; patternOfCheck: number[] } | null = null;
  if (compiled.patterns.some((p) => !p.compiled)) {
    const sub = fallbackSchema(schema, compiled.patterns);
    const { sef } = await cachedSef(cacheDir, `${source}-partial`, sourceHash, compileToXslt(sub.schema));
    partial = { sef, checks: allChecks(sub.schema), patternOfCheck: sub.patternOfCheck };
  }

  // the whole rule set in SaxonJS, for documents the compiled code cannot be sure about
  let full: SefNode | null = null;
  const fullSef = (): SefNode => (full ??= cachedSefSync(cacheDir, source, sourceHash, compileToXslt(schema)).sef);

  const stats: CompiledStats = {
    rules: compiled.rules,
    fallbackRules: compiled.fallbackRules,
    patterns: compiled.patterns,
    dynamicFallbacks: 0,
    lastFallbackReason: null,
    internalErrors: 0,
  };

  const keyedNames = keyedByName(module.patterns);
  const runCompiled = (doc: XDocument, prepared: PreparedSource): Finding<S>[] => {
    const out: Finding<S>[] = [];
    const state: State = {
      doc,
      root: doc.root,
      g: new Array<unknown>(module.globals),
      nm: [],
      f: (index, node, message) => {
        const check = checks[index] as SchCheck;
        out.push({ rule: check.id, flag: check.flag, location: locationPath(node), message: message ?? (messages[index] as string), source });
      },
    };
    let partialRun: IndexedFinding<S>[] | null = null;
    const firstFallback = module.patterns.indexOf(null);
    const keyed = candidates(doc, module.patterns, keyedNames);
    module.patterns.forEach((p, k) => {
      if (p === null) {
        if (!partial) throw new Error('pattern without a fallback');
        partialRun ??= runSefIndexed(partial.sef, prepared, source, partial.checks);
        for (const f of partialRun) {
          const pattern = f.index < 0 ? firstFallback : (partial.patternOfCheck[f.index] ?? firstFallback);
          if (pattern === k) out.push(f.finding);
        }
        return;
      }
      if (p.keyed) {
        const nodes = keyed[k] as XNode[];
        for (let i = 0; i < nodes.length; i++) visit(p, state, nodes[i] as XNode);
      } else {
        // the walk SaxonJS does: the document node, then every element (and its attributes)
        visit(p, state, doc.root);
        const elements = doc.elements;
        for (let i = 0; i < elements.length; i++) {
          const el = elements[i] as XNode;
          visit(p, state, el);
          if (p.attributes) for (const a of el.at) visit(p, state, a);
        }
      }
    });
    return out;
  };

  return {
    source,
    file,
    stats,
    prepare: (prepared) => {
      try {
        prepared.tree();
      } catch {
        // the run falls back to SaxonJS
      }
    },
    run: (xml) => {
      const prepared = typeof xml === 'string' ? (prepareSource(xml) as PreparedSource) : xml;
      try {
        return runCompiled(prepared.tree(), prepared);
      } catch (err) {
        stats.dynamicFallbacks++;
        stats.lastFallbackReason = err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err);
        if (!(err instanceof R.XPathError || err instanceof R.Refusal || err instanceof XmlTreeError)) stats.internalErrors++;
        return runSefIndexed(fullSef(), prepared, source, checks).map((f) => f.finding);
      }
    },
  };
}
