// One compiled rule set: .sch -> model -> XSLT -> cached SEF, ready to run.
import fs from 'node:fs';
import { compileToXslt, type CompileOptions } from './compile.ts';
import { parseSchematron } from './parse.ts';
import { runSef } from './run.ts';
import { cachedSef, sha256 } from './sef.ts';
import type { SefNode } from './saxon.ts';
import type { Finding, SchematronSet } from '../types.ts';

export interface RuleSet {
  source: SchematronSet;
  file: string;
  run(xml: string): Finding[];
}

/** Reads, compiles (or loads from cache) and returns a runnable rule set. */
export async function loadRuleSet(file: string, source: SchematronSet, cacheDir: string, options: CompileOptions = {}): Promise<RuleSet> {
  const bytes = fs.readFileSync(file);
  const xslt = compileToXslt(parseSchematron(bytes), options);
  const { sef } = await cachedSef(cacheDir, options.optimize === false ? `${source}-literal` : source, sha256(bytes), xslt);
  return ruleSetFromSef(sef, file, source);
}

export function ruleSetFromSef(sef: SefNode, file: string, source: SchematronSet): RuleSet {
  return { source, file, run: (xml) => runSef(sef, xml, source) };
}
