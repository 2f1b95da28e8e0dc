import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultArtifactsDir } from '../src/platform/validation/index.ts';
import { freePort, stopService } from '../test/e2e/support/service-process.ts';
import { startNodeOptions } from './start-script.ts';
import { residentMb, watchCpu } from './stats.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const PROBE = fileURLToPath(new URL('./memory-probe.mjs', import.meta.url));
const REST_MS = 10_000;
const TARGET = { rest: 350, peak: 500 };

/** One thread as memory-probe.mjs reports it. */
interface ThreadSample {
  label: string;
  heapMb: number;
  externalMb: number;
  peakHeapMb: number;
  peakExternalMb: number;
  at: number;
  /** the main thread's heap by space */
  spaces?: string;
}

export interface Started {
  child: ChildProcess;
  port: number;
  probeFile: string;
  /** ms from the spawn until health said validation: ready */
  readyMs: number;
  /** highest VmRSS seen while sampling (every 100 ms), beside the kernel's VmHWM */
  sampledPeak: () => number;
  /** highest sampled sum of VmRSS over the service and the processes it started (the first start makes its cluster in one) */
  sampledTreePeak: () => number;
  stopSampling: () => void;
}

/**
 * The compiled service of checkout `repo` as `npm start` runs it (node, its options in the start script, dist/src/main.js, the embedded
 * default: no DATABASE_URL) on `dataDir`, with the probe preloaded; resolves once GET /api/v1/health
 * says the validation stage is ready.
 */
export async function startMeasured(repo: string, dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const port = await freePort();
  const probeFile = path.join(dataDir, '..', `${path.basename(dataDir)}-probe.json`);
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn',
    VALIDATION_ARTIFACTS_DIR: defaultArtifactsDir(), NODE_OPTIONS: `--import ${PROBE}`, MEMORY_PROBE_FILE: probeFile, ...env,
  };
  delete childEnv.DATABASE_URL;
  delete childEnv.EVENTSTORE_URL;
  const started = Date.now();
  const child = spawn(process.execPath, [...startNodeOptions(repo), 'dist/src/main.js'], { cwd: repo, env: childEnv, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  let peak = 0;
  let treePeak = 0;
  const sampler = setInterval(() => {
    const now = child.pid === undefined ? null : residentMb(child.pid);
    if (now) peak = Math.max(peak, now.rss);
    if (child.pid !== undefined) treePeak = Math.max(treePeak, treeResidentMb(child.pid));
  }, 100);
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited (${child.exitCode ?? child.signalCode}) before validation was ready`);
      if (Date.now() - started > 600_000) throw new Error('validation not ready within 600 s');
      const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.json() as Promise<{ validation?: string }>, () => null);
      if (health?.validation === 'ready') break;
      if (health?.validation === 'unavailable') throw new Error('validation unavailable: are the official rules in VALIDATION_ARTIFACTS_DIR?');
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    clearInterval(sampler);
    await stopService(child);
    throw error;
  }
  return { child, port, probeFile, readyMs: Date.now() - started, sampledPeak: () => peak, sampledTreePeak: () => treePeak, stopSampling: () => clearInterval(sampler) };
}

/** VmRSS of `pid` and of every process below it, summed (0 without /proc). */
function treeResidentMb(pid: number): number {
  let children: number[] = [];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    // gone meanwhile
  }
  return (residentMb(pid)?.rss ?? 0) + children.reduce((sum, child) => sum + treeResidentMb(child), 0);
}

/** Anonymous and file-backed resident memory of `pid` (smaps_rollup); file-backed is mostly node's own code. */
function residentKinds(pid: number): string {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
    return `anonymous ${Math.round(kb('Anonymous') / 1024)} MB, file-backed (node's code, shared) ${Math.round((kb('Rss') - kb('Anonymous')) / 1024)} MB`;
  } catch {
    return 'not measured on this system';
  }
}

export function threadLines(probeFile: string): string[] {
  if (!existsSync(probeFile)) return ['    (no probe report)'];
  const threads = JSON.parse(readFileSync(probeFile, 'utf8')) as ThreadSample[];
  const newest = Math.max(...threads.map((t) => t.at));
  const mb = (n: number) => `${Math.round(n)}`.padStart(4);
  return threads
    .sort((a, b) => a.label.localeCompare(b.label))
    .map((t) => `    ${t.label.padEnd(30)} V8 heap ${mb(t.heapMb)} MB (peak ${mb(t.peakHeapMb)})   outside the heap (ArrayBuffers, WebAssembly memory) ${mb(t.externalMb)} MB (peak ${mb(t.peakExternalMb)})${newest - t.at > 2000 ? '   [thread gone]' : ''}${t.spaces ? `\n      heap spaces: ${t.spaces}` : ''}`);
}

interface Figures {
  rest: number;
  peak: number;
  /** with the processes the service started (sampled) */
  treePeak: number;
}

async function measureStart(repo: string, dataDir: string, label: string): Promise<Figures> {
  const started = await startMeasured(repo, dataDir);
  try {
    const ready = residentMb(started.child.pid as number);
    await new Promise((r) => setTimeout(r, REST_MS));
    const rest = residentMb(started.child.pid as number);
    if (!ready || !rest) throw new Error('no /proc: resident memory is measured on Linux only');
    console.log(`\n${label}: validation ready after ${(started.readyMs / 1000).toFixed(1)} s`);
    console.log(`  resident (whole process, all threads): at ready ${ready.rss} MB, at rest (${REST_MS / 1000} s later) ${rest.rss} MB, peak ${rest.peak} MB (VmHWM; highest sampled ${started.sampledPeak()} MB; with the processes it started, highest sampled ${started.sampledTreePeak()} MB)`);
    console.log(`  at rest: ${residentKinds(started.child.pid as number)}`);
    for (const line of threadLines(started.probeFile)) console.log(line);
    return { rest: rest.rss, peak: rest.peak, treePeak: started.sampledTreePeak() };
  } finally {
    started.stopSampling();
    await stopService(started.child);
    await rm(started.probeFile, { force: true });
  }
}

/** Builds a checkout and fills its rules cache, so that a start measures loading the rules, not compiling them. */
export function prepare(repo: string): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.build.json'], { cwd: repo, stdio: 'inherit' });
  const warm = `const { createValidator } = await import(${JSON.stringify(path.join(repo, 'dist/src/platform/validation/index.js'))}); await (await createValidator({ workers: 0 })).close();`;
  execFileSync(process.execPath, ['--input-type=module', '-e', warm], { cwd: repo, stdio: 'inherit', env: { ...process.env, VALIDATION_ARTIFACTS_DIR: defaultArtifactsDir() } });
}

/**
 * `npm run bench -- memory [runs]`: resident memory of the service as `npm start` runs it on the
 * embedded default (compiled build, PGlite, no DATABASE_URL), on a fresh DATA_DIR (the first start:
 * initdb, migrations, the demo) and restarted on it: at the moment health says validation is ready,
 * 10 s later (at rest) and the process's peak (VmHWM), with each thread's V8 heap and the memory
 * outside it (PGlite's WebAssembly memory among it). `npm run bench -- memory soak [minutes]`: a
 * mixed load, resident memory each minute (bench/memory-soak.ts).
 * BENCH_MEMORY_BASE=<dir>: another checkout measured in the same run as a "before".
 * Target (issue 41): <= 350 MB at rest, <= 500 MB peak.
 */
export async function main(args: string[]): Promise<void> {
  if (args[0] === 'soak') {
    const { soak } = await import('./memory-soak.ts');
    return soak(Number(args[1] ?? 10));
  }
  const runs = Math.max(1, Number(args[0] ?? 1) || 1);
  const base = process.env.BENCH_MEMORY_BASE;
  const checkouts = [{ repo: REPO, label: 'this checkout' }, ...(base ? [{ repo: path.resolve(base), label: `base ${path.basename(base)}` }] : [])];
  for (const { repo } of checkouts) prepare(repo);
  const cpu = watchCpu();
  const figures = new Map<string, Figures[]>();
  for (let run = 0; run < runs; run++) {
    for (const { repo, label } of checkouts) {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-memory-'));
      try {
        const first = await measureStart(repo, dataDir, `${label}, first start on an empty DATA_DIR (initdb, migrations, demo)`);
        const again = await measureStart(repo, dataDir, `${label}, restart on that DATA_DIR`);
        figures.set(`${label}, first start`, [...(figures.get(`${label}, first start`) ?? []), first]);
        figures.set(`${label}, restart`, [...(figures.get(`${label}, restart`) ?? []), again]);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  }
  console.log(`\nresident memory, target <= ${TARGET.rest} MB at rest and <= ${TARGET.peak} MB peak:`);
  for (const [label, list] of figures) {
    const rest = list.map((f) => f.rest);
    const peak = list.map((f) => f.peak);
    const treePeak = list.map((f) => f.treePeak);
    const met = Math.max(...rest) <= TARGET.rest && Math.max(...peak) <= TARGET.peak ? 'met' : 'missed';
    console.log(`  ${label.padEnd(34)} at rest ${rest.join(', ')} MB   peak ${peak.join(', ')} MB   (${met}; with its child processes, peak ${treePeak.join(', ')} MB)`);
  }
  console.log(cpu());
}
