// One compiled rule set: .sch -> model -> either JavaScript (the compiled engine, SaxonJS behind it for
// what it cannot translate) or XSLT -> cached SEF run by SaxonJS (the reference engine).
import fs from 'node:fs';
import { allChecks, compileToXslt, type CompileOptions } from './compile.ts';
import type { SchCheck } from './model.ts';
import { parseSchematron } from './parse.ts';
import { runSef, type PreparedSource } from './run.ts';
import { cachedSef, sha256 } from './sef.ts';
import type { SefNode } from './saxon.ts';
import { loadCompiledRuleSet, type CompiledStats } from '../compiled/ruleset.ts';
import type { Finding, SchematronSet } from '../types.ts';

/** Which engine runs the rules: our compiled JavaScript, or SaxonJS (the reference). */
export type ValidationEngineName = 'compiled' | 'saxonjs';

/**
 * `VALIDATION_ENGINE` (compiled | saxonjs); the compiled engine when unset. It gives SaxonJS's findings
 * byte for byte (test/validation/compiled-equivalence.test.ts, `npm run bench -- validation --verify`).
 */
export function defaultEngine(): ValidationEngineName {
  const v = process.env['VALIDATION_ENGINE'];
  if (v === undefined || v === '') return 'compiled';
  if (v === 'compiled' || v === 'saxonjs') return v;
  throw new Error(`VALIDATION_ENGINE must be compiled or saxonjs, not ${v}`);
}

export interface RuleSet<S extends string = SchematronSet> {
  source: S;
  file: string;
  /** Runs on XML text, or on a document prepared once for several rule sets. */
  run(xml: string | PreparedSource): Finding<S>[];
  /** Parses what the engine needs up front (so parsing can be timed apart); optional. */
  prepare?(xml: PreparedSource): void;
  /** The compiled engine's fallback counts; absent for SaxonJS. */
  readonly stats?: CompiledStats;
}

export interface LoadOptions extends CompileOptions {
  /** Default: defaultEngine(). */
  engine?: ValidationEngineName;
}

/** Reads, compiles (or loads from cache) and returns a runnable rule set; `source` also names the cache file. */
export async function loadRuleSet<S extends string>(file: string, source: S, cacheDir: string, options: LoadOptions = {}): Promise<RuleSet<S>> {
  const bytes = fs.readFileSync(file);
  const schema = parseSchematron(bytes);
  const engine = options.engine ?? defaultEngine();
  if (engine === 'compiled' && options.optimize !== false) return loadCompiledRuleSet(file, source, cacheDir, schema, bytes);
  const xslt = compileToXslt(schema, options);
  const { sef } = await cachedSef(cacheDir, options.optimize === false ? `${source}-literal` : source, sha256(bytes), xslt);
  return ruleSetFromSef(sef, file, source, allChecks(schema));
}

/** `checks` (allChecks of the compiled schema) resolves the compact findings of optimised builds. */
export function ruleSetFromSef<S extends string>(sef: SefNode, file: string, source: S, checks: SchCheck[] = []): RuleSet<S> {
  return { source, file, run: (xml) => runSef(sef, xml, source, checks) };
}
