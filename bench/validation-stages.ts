// Single-thread measurements of `npm run bench -- validation`, run in a worker thread with the limits
// of the service's validation workers (bench/validation-worker.mjs): per-stage tables of a whole engine,
// and parse + CEN + Peppol side by side for the compiled engine and SaxonJS.
import os from 'node:os';
import { defaultArtifactsDir, defaultCacheDir, schematronFile } from '../src/platform/validation/artifacts.ts';
import { Engine } from '../src/platform/validation/engine.ts';
import { prepareSource } from '../src/platform/validation/schematron/run.ts';
import { loadRuleSet, type RuleSet, type ValidationEngineName } from '../src/platform/validation/schematron/ruleset.ts';
import type { StageTimings } from '../src/platform/validation/types.ts';
import { cases, percentileOf, type MeasurementTask, type SideBySideResult, type StageResult } from './validation-cases.ts';

const ARTIFACTS = defaultArtifactsDir();
const CACHE = defaultCacheDir();
const STAGES = ['parse', 'xsd', 'cen', 'peppol', 'sk'] as const;

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
    // warm-up: V8 optimises the generated rule code after a few hundred runs
    for (let w = 0; w < (engineName === 'compiled' ? Math.max(5, c.runs) : 1); w++) for (const d of c.docs) engine.validate(d);
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

async function sideBySide(quick: boolean): Promise<SideBySideResult[]> {
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
  return cases(quick).map((c) => {
    const measure = (sets: RuleSet[], runs: number, warm: number): number => {
      for (let w = 0; w < warm; w++) for (const d of c.docs) time(sets, d);
      const v: number[] = [];
      for (let r = 0; r < runs; r++) for (const d of c.docs) v.push(time(sets, d));
      return percentileOf(v, 50);
    };
    const compiled = measure(engines.compiled, c.runs, Math.max(5, c.runs));
    const saxonjs = measure(engines.saxonjs, Math.max(1, Math.round(c.runs / 5)), 1);
    const findings = c.docs.map((d) => {
      const prepared = prepareSource(d);
      return prepared ? engines.compiled.reduce((n, s) => n + s.run(prepared).length, 0) : 0;
    });
    return { name: c.name, compiled, saxonjs, findings };
  });
}

export async function runMeasurement(task: MeasurementTask): Promise<StageResult[] | SideBySideResult[]> {
  if (task.kind === 'stages') return stageBench(task.engine, task.quick);
  return sideBySide(task.quick);
}
