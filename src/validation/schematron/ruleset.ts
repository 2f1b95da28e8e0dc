// One compiled rule set: .sch -> model -> XSLT -> cached SEF, ready to run.
import fs from 'node:fs';
import { allChecks, compileToXslt, type CompileOptions } from './compile.ts';
import type { SchCheck } from './model.ts';
import { parseSchematron } from './parse.ts';
import { runSef, type PreparedSource } from './run.ts';
import { cachedSef, sha256 } from './sef.ts';
import type { SefNode } from './saxon.ts';
import type { Finding, SchematronSet } from '../types.ts';

export interface RuleSet<S extends string = SchematronSet> {
  source: S;
  file: string;
  /** Runs on XML text, or on a document prepared once for several rule sets. */
  run(xml: string | PreparedSource): Finding<S>[];
}

/** Reads, compiles (or loads from cache) and returns a runnable rule set; `source` also names the cache file. */
export async function loadRuleSet<S extends string>(file: string, source: S, cacheDir: string, options: CompileOptions = {}): Promise<RuleSet<S>> {
  const bytes = fs.readFileSync(file);
  const schema = parseSchematron(bytes);
  const xslt = compileToXslt(schema, options);
  const { sef } = await cachedSef(cacheDir, options.optimize === false ? `${source}-literal` : source, sha256(bytes), xslt);
  return ruleSetFromSef(sef, file, source, allChecks(schema));
}

/** `checks` (allChecks of the compiled schema) resolves the compact findings of optimised builds. */
export function ruleSetFromSef<S extends string>(sef: SefNode, file: string, source: S, checks: SchCheck[] = []): RuleSet<S> {
  return { source, file, run: (xml) => runSef(sef, xml, source, checks) };
}
