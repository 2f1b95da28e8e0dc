// `npm run bench -- validation [--verify] [--quick] [--literal]`
//
// Default: ms per document (p50/p95) for each stage (parse, XSD, CEN, Peppol, SK, total) on the
// official 3.0.21 examples and generated Slovak invoices of 10, 100 and 1,000 lines, in one thread;
// then invoices/s through the worker pool.
// --literal: the same table for the literal (unoptimised) translation, for comparison.
// --verify: proves the optimised compilation gives the same findings as the literal one on every
// official unit test, every official example and the generated invoices.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultArtifactsDir, defaultCacheDir } from '../src/validation/artifacts.ts';
import { Engine } from '../src/validation/engine.ts';
import { createValidator } from '../src/validation/index.ts';
import { loadRuleSet } from '../src/validation/schematron/ruleset.ts';
import type { Finding, StageTimings } from '../src/validation/types.ts';
import { generateInvoice } from '../test/validation/support/generate-invoice.ts';
import { listXmlFiles, readUnitTests } from '../test/validation/support/unit-tests.ts';
import { percentile } from './stats.ts';

const ARTIFACTS = defaultArtifactsDir();
const CACHE = defaultCacheDir();
const STAGES = ['parse', 'xsd', 'cen', 'peppol', 'sk'] as const;

/** Stage timings arrive in run order; percentiles need them ascending. */
const percentileOf = (values: number[], p: number) => percentile([...values].sort((a, b) => a - b), p);

interface Case {
  name: string;
  docs: string[];
  runs: number;
}

function cases(quick: boolean): Case[] {
  const examples = listXmlFiles(path.join(ARTIFACTS, 'examples/peppol-bis-3.0.21/rules/examples')).map((f) => fs.readFileSync(f, 'utf8'));
  return [
    { name: `official examples (${examples.length})`, docs: examples, runs: quick ? 2 : 5 },
    { name: 'generated, 10 lines', docs: [generateInvoice(10)], runs: quick ? 5 : 30 },
    { name: 'generated, 100 lines', docs: [generateInvoice(100)], runs: quick ? 3 : 15 },
    { name: 'generated, 1,000 lines', docs: [generateInvoice(1000)], runs: quick ? 1 : 5 },
  ];
}

async function stageBench(quick: boolean, literal: boolean): Promise<void> {
  const engine = await Engine.create({ artifactsDir: ARTIFACTS, cacheDir: CACHE, compile: { optimize: !literal } });
  const what = literal ? 'LITERAL translation' : 'optimised compilation';
  console.log(`\nPer-stage ms per document (p50 / p95), ${what}, one thread (Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}):\n`);
  console.log('| documents | runs | parse | XSD | CEN | Peppol | SK | total p50 | total p95 |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const c of cases(quick || literal)) {
    for (const d of c.docs) engine.validate(d); // warm-up
    const samples: StageTimings[] = [];
    for (let r = 0; r < c.runs; r++) for (const d of c.docs) samples.push(engine.validate(d).timings_ms);
    const cell = (stage: (typeof STAGES)[number]): string => {
      const v = samples.map((s) => s[stage] ?? 0);
      return `${percentileOf(v, 50).toFixed(1)} / ${percentileOf(v, 95).toFixed(1)}`;
    };
    const totals = samples.map((s) => STAGES.reduce((sum, st) => sum + (s[st] ?? 0), 0));
    console.log(`| ${c.name} | ${samples.length} | ${STAGES.map(cell).join(' | ')} | ${percentileOf(totals, 50).toFixed(1)} | ${percentileOf(totals, 95).toFixed(1)} |`);
  }
  engine.close();
}

async function poolBench(quick: boolean): Promise<void> {
  const workers = Math.min(2, os.availableParallelism());
  const validator = await createValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE, workers });
  console.log(`\nThroughput through the pool (${workers} workers, all stages):\n`);
  console.log('| documents | count | invoices/s |');
  console.log('|---|---|---|');
  for (const c of cases(quick).slice(0, 3)) {
    const count = Math.max(c.docs.length, quick ? 10 : 40);
    const docs = Array.from({ length: count }, (_, i) => c.docs[i % c.docs.length] ?? '');
    await Promise.all(docs.slice(0, workers * 2).map((d) => validator.validate(d)));
    const started = performance.now();
    await Promise.all(docs.map((d) => validator.validate(d)));
    const seconds = (performance.now() - started) / 1000;
    console.log(`| ${c.name} | ${count} | ${(count / seconds).toFixed(1)} |`);
  }
  await validator.close();
}

const key = (f: Finding): string => `${f.rule}|${f.flag}|${f.location}|${f.message}`;

async function verify(): Promise<void> {
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
    const literal = await loadRuleSet(p.file, p.set, CACHE, { optimize: false });
    const optimized = await loadRuleSet(p.file, p.set, CACHE);
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

export async function main(args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  if (args.includes('--verify')) return verify();
  const literal = args.includes('--literal');
  await stageBench(quick, literal);
  if (!literal) await poolBench(quick);
}
