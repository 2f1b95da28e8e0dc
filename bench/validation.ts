// `npm run bench -- validation [--quick] [--verify] [--literal] [--mutants N] [--seed N]`
//
// Default:
//  1. what compiling each rule file to JavaScript costs (time, peak memory; a child process each);
//  2. ms per document (p50/p95) per stage (parse, XSD, CEN, Peppol, SK, total) in one thread, for the
//     compiled engine and for SaxonJS, on the official 3.0.21 examples and generated Slovak invoices
//     of 10, 100 and 1,000 lines;
//  3. side by side, parse + CEN + Peppol on the same documents: compiled, SaxonJS and Java Saxon-HE
//     running the publishers' XSLT (when java and libsaxonhe-java are installed), with ratios;
//  4. invoices/s through the worker pool (compiled engine), and the targets of issue 20.
// --verify: the compiled engine against SaxonJS on every rule file: official unit tests, examples,
//   SK TDD test files, generated invoices and --mutants (default 10,000) seeded single-edit mutants;
//   prints the counts and fails on any difference. With --literal, instead proves SaxonJS's optimised
//   compilation gives the same findings as its literal one (the older check).
// --literal: the stage table for SaxonJS's literal (unoptimised) translation.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultArtifactsDir, defaultCacheDir, schematronFile } from '../src/validation/artifacts.ts';
import { Engine } from '../src/validation/engine.ts';
import { createValidator } from '../src/validation/index.ts';
import { prepareSource } from '../src/validation/schematron/run.ts';
import { loadRuleSet, type RuleSet, type ValidationEngineName } from '../src/validation/schematron/ruleset.ts';
import type { Finding, StageTimings } from '../src/validation/types.ts';
import { buildTdd } from '../src/tdd/index.ts';
import { compare, fixedCorpus, loadPair, ruleFiles } from '../test/validation/support/equivalence.ts';
import { generateInvoice } from '../test/validation/support/generate-invoice.ts';
import { baseDocuments, mutationCorpus, type CorpusDocument } from '../test/validation/support/mutations.ts';
import { listXmlFiles, readUnitTests } from '../test/validation/support/unit-tests.ts';
import { slovakHeader } from '../test/tdd/support/headers.ts';
import { percentile, watchCpu } from './stats.ts';
import { javaTimings } from './validation-java.ts';

const ARTIFACTS = defaultArtifactsDir();
const CACHE = defaultCacheDir();
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAGES = ['parse', 'xsd', 'cen', 'peppol', 'sk'] as const;

/** Stage timings arrive in run order; percentiles need them ascending. */
const percentileOf = (values: number[], p: number): number => percentile([...values].sort((a, b) => a - b), p);

interface Case {
  name: string;
  docs: string[];
  runs: number;
}

function cases(quick: boolean, slow = false): Case[] {
  const examples = listXmlFiles(path.join(ARTIFACTS, 'examples/peppol-bis-3.0.21/rules/examples')).map((f) => fs.readFileSync(f, 'utf8'));
  const scale = slow ? 0.2 : 1;
  const runs = (n: number): number => Math.max(1, Math.round((quick ? n / 5 : n) * scale));
  return [
    { name: `official examples (${examples.length})`, docs: examples, runs: runs(20) },
    { name: 'generated, 10 lines', docs: [generateInvoice(10)], runs: runs(100) },
    { name: 'generated, 100 lines', docs: [generateInvoice(100)], runs: runs(50) },
    { name: 'generated, 1,000 lines', docs: [generateInvoice(1000)], runs: runs(15) },
  ];
}

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

// ---------------------------------------------------------------- compile cost

interface CompileCost {
  label: string;
  ms: number;
  maxRssMb: number;
  rules: number;
  fallbackRules: number;
}

function compileCosts(): CompileCost[] {
  const files = ruleFiles(ARTIFACTS, REPO).filter((r) => r.kind === 'invoice');
  console.log('\nCompiling each rule file to JavaScript, no cache, one child process each:\n');
  console.log('| rule file | rules | fall back to SaxonJS | compile time | peak RSS |');
  console.log('|---|---|---|---|---|');
  const out: CompileCost[] = [];
  for (const r of files) {
    const json = execFileSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/validation-compile.ts'), r.file], { encoding: 'utf8' });
    const c = JSON.parse(json.trim().split('\n').pop() ?? '{}') as Omit<CompileCost, 'label'>;
    out.push({ label: r.label, ...c });
    console.log(`| ${r.label} | ${c.rules} | ${c.fallbackRules} | ${(c.ms / 1000).toFixed(2)} s | ${c.maxRssMb.toFixed(0)} MB |`);
  }
  return out;
}

// ---------------------------------------------------------------- stage tables

interface StageResult {
  name: string;
  totalP50: number;
  totalP95: number;
}

async function stageBench(engineName: ValidationEngineName | 'literal', quick: boolean): Promise<StageResult[]> {
  const engine = await Engine.create({
    artifactsDir: ARTIFACTS,
    cacheDir: CACHE,
    ...(engineName === 'literal' ? { engine: 'saxonjs' as const, compile: { optimize: false } } : { engine: engineName }),
  });
  const what = { compiled: 'compiled engine', saxonjs: 'SaxonJS (optimised compilation)', literal: 'SaxonJS, LITERAL translation' }[engineName];
  console.log(`\nPer-stage ms per document (p50 / p95), ${what}, one thread (Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}):\n`);
  console.log('| documents | runs | parse | XSD | CEN | Peppol | SK | total p50 | total p95 |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const out: StageResult[] = [];
  for (const c of cases(quick, engineName !== 'compiled')) {
    for (let w = 0; w < (engineName === 'compiled' ? 5 : 1); w++) for (const d of c.docs) engine.validate(d); // warm-up
    const samples: StageTimings[] = [];
    for (let r = 0; r < c.runs; r++) for (const d of c.docs) samples.push(engine.validate(d).timings_ms);
    const cell = (stage: (typeof STAGES)[number]): string => {
      const v = samples.map((s) => s[stage] ?? 0);
      return `${percentileOf(v, 50).toFixed(1)} / ${percentileOf(v, 95).toFixed(1)}`;
    };
    const totals = samples.map((s) => STAGES.reduce((sum, st) => sum + (s[st] ?? 0), 0));
    const result = { name: c.name, totalP50: percentileOf(totals, 50), totalP95: percentileOf(totals, 95) };
    out.push(result);
    console.log(`| ${c.name} | ${samples.length} | ${STAGES.map(cell).join(' | ')} | ${result.totalP50.toFixed(1)} | ${result.totalP95.toFixed(1)} |`);
  }
  engine.close();
  return out;
}

// ---------------------------------------------------------------- side by side with Java

async function sideBySide(quick: boolean): Promise<void> {
  const load = async (engine: ValidationEngineName): Promise<RuleSet[]> => [
    await loadRuleSet(schematronFile(ARTIFACTS, 'cen'), 'cen', CACHE, { engine }),
    await loadRuleSet(schematronFile(ARTIFACTS, 'peppol'), 'peppol', CACHE, { engine }),
  ];
  const engines = { compiled: await load('compiled'), saxonjs: await load('saxonjs') };
  const time = (sets: RuleSet[], xml: string): number => {
    const t = performance.now();
    const prepared = prepareSource(xml);
    if (prepared) for (const s of sets) s.run(prepared);
    return performance.now() - t;
  };
  const all = cases(quick);
  const docs = all.flatMap((c) => c.docs);
  const java = javaTimings(ARTIFACTS, docs, quick ? 3 : 10, quick ? 3 : 10);
  console.log('\nSide by side: parse the document, run CEN + Peppol (3.0.21), ms per document p50 (one thread, warm):\n');
  console.log('| documents | compiled | SaxonJS | Java Saxon-HE 9.9 | SaxonJS / compiled | Java / compiled |');
  console.log('|---|---|---|---|---|---|');
  let offset = 0;
  for (const c of all) {
    const measure = (sets: RuleSet[], runs: number): number => {
      for (const d of c.docs) time(sets, d);
      const v: number[] = [];
      for (let r = 0; r < runs; r++) for (const d of c.docs) v.push(time(sets, d));
      return percentileOf(v, 50);
    };
    const compiled = measure(engines.compiled, c.runs);
    const saxon = measure(engines.saxonjs, Math.max(1, Math.round(c.runs / 5)));
    const javaMs = java ? percentileOf(c.docs.flatMap((_, i) => java.perDocument[offset + i] ?? []), 50) : null;
    offset += c.docs.length;
    const ratio = (x: number): string => `${(x / compiled).toFixed(1)}x`;
    console.log(
      `| ${c.name} | ${compiled.toFixed(2)} | ${saxon.toFixed(1)} | ${javaMs === null ? 'n/a' : javaMs.toFixed(1)} | ${ratio(saxon)} | ${javaMs === null ? 'n/a' : ratio(javaMs)} |`,
    );
  }
  if (java) {
    // a sanity check that Java ran the same rules: fatal and warning asserts per document
    const ours = docs.map((d) => {
      const prepared = prepareSource(d);
      return prepared ? engines.compiled.reduce((n, s) => n + s.run(prepared).length, 0) : 0;
    });
    const same = ours.every((n, i) => n === java.failed[i]);
    console.log(`\nJava's failed asserts per document ${same ? 'equal' : 'DIFFER from'} the compiled engine's findings (${java.failed.join(', ')}).`);
  }
}

// ---------------------------------------------------------------- pool

async function poolBench(quick: boolean, engine: ValidationEngineName): Promise<number[]> {
  const workers = Math.min(2, os.availableParallelism());
  const validator = await createValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE, workers, engine });
  console.log(`\nThroughput through the pool (${workers} workers, all stages, ${engine} engine):\n`);
  console.log('| documents | count | invoices/s |');
  console.log('|---|---|---|');
  const out: number[] = [];
  for (const c of cases(quick).slice(0, 3)) {
    const count = Math.max(c.docs.length, quick ? 100 : 1000) / (c.name.includes('100 lines') ? 10 : 1);
    const docs = Array.from({ length: count }, (_, i) => c.docs[i % c.docs.length] ?? '');
    await Promise.all(docs.slice(0, workers * 20).map((d) => validator.validate(d)));
    const started = performance.now();
    await Promise.all(docs.map((d) => validator.validate(d)));
    const perSecond = count / ((performance.now() - started) / 1000);
    out.push(perSecond);
    console.log(`| ${c.name} | ${count} | ${perSecond.toFixed(1)} |`);
  }
  await validator.close();
  return out;
}

// ---------------------------------------------------------------- verify

const key = (f: Finding): string => `${f.rule}|${f.flag}|${f.location}|${f.message}`;

async function verifyEngines(mutants: number, seed: number): Promise<void> {
  const bases = baseDocuments(ARTIFACTS, REPO);
  const tdds: CorpusDocument[] = [];
  for (const d of bases) {
    try {
      tdds.push({ name: `TDD of ${d.name}`, xml: buildTdd(d.xml, slovakHeader('C2', '0245:2020123456')) });
    } catch {
      // not every example makes a TDD
    }
  }
  console.log(`\nCompiled engine vs SaxonJS, findings compared byte for byte (mutation seed ${seed}):\n`);
  console.log('| rule file | documents | of which mutants | findings | differing documents | rules falling back | documents handed to SaxonJS |');
  console.log('|---|---|---|---|---|---|---|');
  let differing = 0;
  for (const rule of ruleFiles(ARTIFACTS, REPO)) {
    const pair = await loadPair(rule, CACHE);
    const fixed = rule.kind === 'tdd' ? fixedCorpus(rule, ARTIFACTS, REPO, tdds) : fixedCorpus(rule, ARTIFACTS, REPO);
    const mutantCount = rule.kind === 'tdd' ? Math.ceil(mutants / 10) : mutants;
    const corpus = (function* (): Generator<CorpusDocument> {
      yield* fixed;
      yield* mutationCorpus(rule.kind === 'tdd' ? tdds : bases, seed, mutantCount);
    })();
    const r = compare(pair, corpus, 5);
    differing += r.differing;
    console.log(`| ${rule.label} | ${r.documents} | ${r.documents - fixed.length} | ${r.findings} | ${r.differing} | ${r.fallbackRules} / ${r.rules} | ${r.dynamicFallbacks} |`);
    for (const d of r.differences) console.log(`  DIFFERENT: ${d}`);
    if (r.internalErrors > 0) {
      differing += r.internalErrors;
      console.log(`  ${r.internalErrors} documents fell back because of a bug: ${r.lastFallbackReason ?? ''}`);
    }
  }
  if (differing > 0) throw new Error(`${differing} documents gave different findings`);
  console.log('\nidentical: true');
}

async function verifyLiteral(): Promise<void> {
  const sch = (release: string, name: string): string => path.join(ARTIFACTS, 'schematron', release, 'rules', 'sch', name);
  const pairs = [
    { set: 'cen' as const, file: sch('peppol-bis-3.0.21', 'CEN-EN16931-UBL.sch'), tests: 'unit-tests/cen-1.3.16' },
    { set: 'peppol' as const, file: sch('peppol-bis-3.0.19', 'PEPPOL-EN16931-UBL.sch'), tests: 'unit-tests/peppol-bis-3.0.19' },
    { set: 'peppol' as const, file: sch('peppol-bis-3.0.21', 'PEPPOL-EN16931-UBL.sch'), tests: 'unit-tests/peppol-bis-3.0.19' },
  ];
  const documents = [
    ...listXmlFiles(path.join(ARTIFACTS, 'examples')).map((f) => fs.readFileSync(f, 'utf8')),
    ...listXmlFiles(path.join(ARTIFACTS, 'sk-tdd/testfiles/invoice')).map((f) => fs.readFileSync(f, 'utf8')),
    ...[1, 10, 100].map(generateInvoice),
  ];
  let differences = 0;
  for (const p of pairs) {
    const literal = await loadRuleSet(p.file, p.set, CACHE, { optimize: false, engine: 'saxonjs' });
    const optimized = await loadRuleSet(p.file, p.set, CACHE, { engine: 'saxonjs' });
    const unitDocs = listXmlFiles(path.join(ARTIFACTS, p.tests)).flatMap((f) => readUnitTests(f).map((t) => t.xml));
    let compared = 0;
    let findings = 0;
    for (const doc of [...unitDocs, ...documents]) {
      const a = literal.run(doc).map(key).sort();
      const b = optimized.run(doc).map(key).sort();
      compared++;
      findings += a.length;
      if (a.join('\n') !== b.join('\n')) {
        differences++;
        console.log(`DIFFERENT on ${p.file} (document ${compared}):\n  literal:   ${a.join('\n             ')}\n  optimized: ${b.join('\n             ')}`);
      }
    }
    console.log(`${path.relative(ARTIFACTS, p.file)}: ${compared} documents, ${findings} findings, identical: ${differences === 0}`);
  }
  if (differences > 0) throw new Error(`${differences} documents gave different findings`);
}

// ---------------------------------------------------------------- main

function targets(compile: CompileCost[], compiled: StageResult[], pool: number[]): void {
  const small = Math.max(compiled[0]?.totalP50 ?? Infinity, compiled[1]?.totalP50 ?? Infinity);
  const rows: [string, string, boolean][] = [
    ['small invoice <= 5 ms p50 (official examples, 10 lines)', `${compiled[0]?.totalP50.toFixed(1)} / ${compiled[1]?.totalP50.toFixed(1)} ms`, small <= 5],
    ['100 lines <= 15 ms p50', `${compiled[2]?.totalP50.toFixed(1)} ms`, (compiled[2]?.totalP50 ?? Infinity) <= 15],
    ['1,000 lines <= 120 ms p50', `${compiled[3]?.totalP50.toFixed(1)} ms`, (compiled[3]?.totalP50 ?? Infinity) <= 120],
    ['pool >= 300 small invoices/s on two cores', `${pool.slice(0, 2).map((p) => p.toFixed(0)).join(' / ')} /s`, Math.min(pool[0] ?? 0, pool[1] ?? 0) >= 300],
    [
      'compiling a rule set <= 5 s and <= 300 MB',
      compile.map((c) => `${c.label} ${(c.ms / 1000).toFixed(1)} s ${c.maxRssMb.toFixed(0)} MB`).join('; '),
      compile.every((c) => c.ms <= 5000 && c.maxRssMb <= 300),
    ],
  ];
  console.log('\nTargets (XSD + CEN + Peppol + SK, one core):\n');
  console.log('| target | result | met? |');
  console.log('|---|---|---|');
  for (const [t, r, ok] of rows) console.log(`| ${t} | ${r} | ${ok ? 'yes' : 'no'} |`);
}

export async function main(args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  const literal = args.includes('--literal');
  if (args.includes('--verify')) {
    if (literal) return verifyLiteral();
    return verifyEngines(Number(argValue(args, '--mutants') ?? 10_000), Number(argValue(args, '--seed') ?? 1));
  }
  const cpu = watchCpu();
  if (literal) {
    await stageBench('literal', true);
    console.log(`\n${cpu()}`);
    return;
  }
  const compile = compileCosts();
  const compiled = await stageBench('compiled', quick);
  await stageBench('saxonjs', quick);
  await sideBySide(quick);
  const pool = await poolBench(quick, 'compiled');
  targets(compile, compiled, pool);
  console.log(`\n${cpu()}`);
}
