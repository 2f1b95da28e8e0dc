// The equivalence proof shared by the tests and `npm run bench -- validation --verify`: each rule set
// run by the compiled engine and by SaxonJS (the reference) on the same documents must give the same
// findings, in the same order, byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { loadRuleSet, type RuleSet } from '../../../src/platform/validation/schematron/ruleset.ts';
import type { Finding } from '../../../src/platform/validation/types.ts';
import { tddSchematronFile } from '../../../src/modules/delivery/fs/tax-data-document/artifacts.ts';
import { reportExamplesDir, reportSchematronFile } from '../../../src/modules/reporting/artifacts.ts';
import { generateInvoice } from './generate-invoice.ts';
import type { CorpusDocument } from './mutations.ts';
import { listXmlFiles, readUnitTests } from './unit-tests.ts';

export interface RuleFile {
  label: string;
  /** Cache name and finding source. */
  set: string;
  file: string;
  /** Unit tests (VEFA format) run against this file, relative to the artifacts directory. */
  unitTests: string | null;
  /** Which documents it validates: invoices, Tax Data Documents, or Peppol Reporting documents (EUSR, TSR). */
  kind: 'invoice' | 'tdd' | 'eusr' | 'tsr';
}

const sch = (artifacts: string, release: string, name: string): string => path.join(artifacts, 'schematron', release, 'rules', 'sch', name);

/** Every rule file the service runs or the conformance suite uses. */
export function ruleFiles(artifacts: string, repoRoot: string): RuleFile[] {
  return [
    { label: 'CEN 1.3.16', set: 'cen', file: sch(artifacts, 'peppol-bis-3.0.21', 'CEN-EN16931-UBL.sch'), unitTests: 'unit-tests/cen-1.3.16', kind: 'invoice' as const },
    { label: 'Peppol 3.0.21', set: 'peppol', file: sch(artifacts, 'peppol-bis-3.0.21', 'PEPPOL-EN16931-UBL.sch'), unitTests: 'unit-tests/peppol-bis-3.0.19', kind: 'invoice' as const },
    { label: 'Peppol 3.0.19', set: 'peppol', file: sch(artifacts, 'peppol-bis-3.0.19', 'PEPPOL-EN16931-UBL.sch'), unitTests: 'unit-tests/peppol-bis-3.0.19', kind: 'invoice' as const },
    { label: 'SK (SK-UBL.sch)', set: 'sk', file: path.join(repoRoot, 'schemas/sk/SK-UBL.sch'), unitTests: null, kind: 'invoice' as const },
    { label: 'SK TDD', set: 'tdd', file: tddSchematronFile(artifacts, 'tdd'), unitTests: null, kind: 'tdd' as const },
    { label: 'SK TDD CEN', set: 'tdd-cen', file: tddSchematronFile(artifacts, 'tdd-cen'), unitTests: null, kind: 'tdd' as const },
    { label: 'SK TDD Peppol', set: 'tdd-peppol', file: tddSchematronFile(artifacts, 'tdd-peppol'), unitTests: null, kind: 'tdd' as const },
    { label: 'Peppol EUSR 1.1.5', set: 'eusr', file: reportSchematronFile(artifacts, 'eusr'), unitTests: null, kind: 'eusr' as const },
    { label: 'Peppol TSR 1.0.5', set: 'tsr', file: reportSchematronFile(artifacts, 'tsr'), unitTests: null, kind: 'tsr' as const },
  ].filter((r) => fs.existsSync(r.file));
}

function readDir(dir: string, base: string): CorpusDocument[] {
  return fs.existsSync(dir) ? listXmlFiles(dir).map((f) => ({ name: path.relative(base, f), xml: fs.readFileSync(f, 'utf8') })) : [];
}

/** The fixed corpus: unit tests of the file, official examples, SK test invoices, generated invoices (or TDDs; or a report's examples). `extraTdds`: more documents of the rule's kind. */
export function fixedCorpus(rule: RuleFile, artifacts: string, repoRoot: string, extraTdds: CorpusDocument[] = []): CorpusDocument[] {
  if (rule.kind === 'eusr' || rule.kind === 'tsr') return [...readDir(reportExamplesDir(artifacts, rule.kind), artifacts), ...extraTdds];
  if (rule.kind === 'tdd') {
    return [...readDir(path.join(artifacts, 'sk-tdd/testfiles/tdd'), artifacts), ...readDir(path.join(artifacts, 'sk-tdd/bundle-2026-04-14/trn-tdd/example'), artifacts), ...extraTdds];
  }
  const unit = rule.unitTests
    ? listXmlFiles(path.join(artifacts, rule.unitTests)).flatMap((f) => readUnitTests(f).map((t) => ({ name: `${path.relative(artifacts, f)} #${t.index + 1}`, xml: t.xml })))
    : [];
  return [
    ...unit,
    ...readDir(path.join(artifacts, 'examples'), artifacts),
    ...readDir(path.join(artifacts, 'sk-tdd/testfiles/invoice'), artifacts),
    ...readDir(path.join(repoRoot, 'schemas/sk/tests'), repoRoot),
    ...[1, 10, 100].map((n) => ({ name: `generated-${n}`, xml: generateInvoice(n) })),
  ];
}

export interface Comparison {
  documents: number;
  findings: number;
  /** Documents whose findings differ. */
  differing: number;
  differences: string[];
  /** Documents the compiled engine handed to SaxonJS (dynamic errors, refusals). */
  dynamicFallbacks: number;
  /** Fallbacks caused by a bug (not an XPath error or refusal): must be 0. */
  internalErrors: number;
  lastFallbackReason: string | null;
  /** Rules the compiler could not translate. */
  fallbackRules: number;
  rules: number;
}

const key = (f: Finding<string>): string => `${f.rule}|${f.flag}|${f.location}|${f.message}`;

export interface LoadedPair {
  compiled: RuleSet<string>;
  reference: RuleSet<string>;
}

export async function loadPair(rule: RuleFile, cacheDir: string): Promise<LoadedPair> {
  return {
    compiled: await loadRuleSet(rule.file, rule.set, cacheDir, { engine: 'compiled' }),
    reference: await loadRuleSet(rule.file, rule.set, cacheDir, { engine: 'saxonjs' }),
  };
}

/** Runs both engines on every document; differences are described (at most `keep` of them). */
export function compare(pair: LoadedPair, documents: Iterable<CorpusDocument>, keep = 10): Comparison {
  const stats = pair.compiled.stats;
  const before = stats?.dynamicFallbacks ?? 0;
  const internalBefore = stats?.internalErrors ?? 0;
  const out: Comparison = {
    documents: 0,
    findings: 0,
    differing: 0,
    differences: [],
    dynamicFallbacks: 0,
    internalErrors: 0,
    lastFallbackReason: null,
    fallbackRules: stats?.fallbackRules ?? 0,
    rules: stats?.rules ?? 0,
  };
  for (const d of documents) {
    out.documents++;
    const expected = pair.reference.run(d.xml).map(key);
    const actual = pair.compiled.run(d.xml).map(key);
    out.findings += expected.length;
    if (expected.join('\n') !== actual.join('\n')) {
      out.differing++;
      if (out.differences.length < keep) {
        const a = new Set(actual);
        const e = new Set(expected);
        out.differences.push(
          `${d.name}\n    only SaxonJS:  ${expected.filter((x) => !a.has(x)).slice(0, 3).join(' ;; ')}\n    only compiled: ${actual.filter((x) => !e.has(x)).slice(0, 3).join(' ;; ')}`,
        );
      }
    }
  }
  out.dynamicFallbacks = (stats?.dynamicFallbacks ?? 0) - before;
  out.internalErrors = (stats?.internalErrors ?? 0) - internalBefore;
  out.lastFallbackReason = stats?.lastFallbackReason ?? null;
  if (out.differing > out.differences.length) out.differences.push(`... ${out.differing - out.differences.length} more`);
  return out;
}
