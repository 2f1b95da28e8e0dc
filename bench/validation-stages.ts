// Single-thread measurements of `npm run bench -- validation`, run in a worker thread with the limits
// of the service's validation workers (bench/validation-worker.mjs): per-stage tables of a whole engine,
// and parse + CEN + Peppol side by side for the compiled engine and SaxonJS.
import os from 'node:os';
import path from 'node:path';
import { defaultArtifactsDir, defaultCacheDir, schematronFile } from '../src/platform/validation/artifacts.ts';
import { Engine } from '../src/platform/validation/engine.ts';
import { prepareSource } from '../src/platform/validation/schematron/run.ts';
import { loadRuleSet, type RuleSet, type ValidationEngineName } from '../src/platform/validation/schematron/ruleset.ts';
import type { StageTimings } from '../src/platform/validation/types.ts';
import { cases, percentileOf, STAGES, type MeasurementTask, type SideBySideResult, type Stage, type StageResult } from './validation-cases.ts';

const ARTIFACTS = defaultArtifactsDir();
const CACHE = defaultCacheDir();

/** The Engine class of a checkout: this one, or a --baseline tree measured beside it in the same run. */
async function engineClass(root: string | undefined): Promise<typeof Engine> {
  if (root === undefined) return Engine;
  return ((await import(path.join(path.resolve(root), 'src/platform/validation/engine.ts'))) as { Engine: typeof Engine }).Engine;
}

async function stageBench(engineName: ValidationEngineName | 'literal', quick: boolean, baseline?: string): Promise<StageResult[]> {
  const options = engineName === 'literal' ? { engine: 'saxonjs' as const, compile: { optimize: false } } : { engine: engineName };
  const engines: { label: string; engine: Engine }[] = [];
  if (baseline !== undefined) {
    const Base = await engineClass(baseline);
    engines.push({ label: 'before', engine: await Base.create({ artifactsDir: ARTIFACTS, cacheDir: path.join(path.resolve(baseline), '.cache', 'validation'), ...options }) });
  }
  engines.push({ label: '', engine: await Engine.create({ artifactsDir: ARTIFACTS, cacheDir: CACHE, ...options }) });
  const what = { compiled: 'compiled engine', saxonjs: 'SaxonJS (optimised compilation)', literal: 'SaxonJS, LITERAL translation' }[engineName];
  const beside = baseline === undefined ? '' : `; "before" rows: the engine of ${baseline}, runs interleaved with this tree's`;
  console.log(`\nPer-stage ms per document (p50 / p95), ${what}, one thread (Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}${beside}):\n`);
  console.log('| documents | runs | parse | XSD | CEN | Peppol | SK | total p50 | total p95 | CPU mean |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const out: StageResult[] = [];
  for (const c of cases(quick, engineName !== 'compiled')) {
    // warm-up: V8 optimises the generated rule code after a few hundred runs
    for (const { engine } of engines) for (let w = 0; w < (engineName === 'compiled' ? Math.max(5, c.runs) : 1); w++) for (const d of c.docs) engine.validate(d);
    const samples = engines.map((): StageTimings[] => []);
    const cpu = engines.map(() => 0);
    // engines alternate document by document, so a load spike from elsewhere hits both alike
    for (let r = 0; r < c.runs; r++) {
      for (const d of c.docs) {
        engines.forEach(({ engine }, k) => {
          const before = process.threadCpuUsage();
          samples[k]?.push(engine.validate(d).timings_ms);
          const used = process.threadCpuUsage(before);
          cpu[k] = (cpu[k] ?? 0) + (used.user + used.system) / 1000;
        });
      }
    }
    engines.forEach(({ label }, k) => {
      const mine = samples[k] ?? [];
      const stage = (st: Stage, p: number): number => percentileOf(mine.map((s) => s[st] ?? 0), p);
      const totals = mine.map((s) => STAGES.reduce((sum, st) => sum + (s[st] ?? 0), 0));
      const stages = Object.fromEntries(STAGES.map((st) => [st, stage(st, 50)])) as Record<Stage, number>;
      const result = { name: c.name, label, stages, totalP50: percentileOf(totals, 50), totalP95: percentileOf(totals, 95), cpuMean: (cpu[k] ?? 0) / mine.length };
      out.push(result);
      const cells = STAGES.map((st) => `${stage(st, 50).toFixed(1)} / ${stage(st, 95).toFixed(1)}`);
      console.log(`| ${c.name}${label ? ` (${label})` : ''} | ${mine.length} | ${cells.join(' | ')} | ${result.totalP50.toFixed(1)} | ${result.totalP95.toFixed(1)} | ${result.cpuMean.toFixed(1)} |`);
    });
  }
  for (const { engine } of engines) engine.close();
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
  if (task.kind === 'stages') return stageBench(task.engine, task.quick, task.baseline);
  return sideBySide(task.quick);
}
