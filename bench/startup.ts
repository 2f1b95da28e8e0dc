import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createValidator } from '../src/platform/validation/index.ts';
import { freePort, healthy, startService, stopService, type Launch } from '../test/e2e/support/service-process.ts';
import { percentile, watchCpu } from './stats.ts';

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const LAUNCHES: { launch: Launch | 'base'; label: string }[] = [
  { launch: 'compiled', label: 'node dist/src/main.js (compiled)' },
  { launch: 'npm-start', label: 'npm start (freshness check + compiled)' },
  { launch: 'tsx', label: 'node --import tsx src/main.ts (before)' },
];

/**
 * BENCH_STARTUP_BASE=<dir>: another checkout, built there (`npm run build`), measured in the same
 * runs as a "before" (its dist/src/main.js, same DATA_DIR, same environment). Its data directory
 * format must be this one's.
 */
const BASE = process.env.BENCH_STARTUP_BASE;
if (BASE) LAUNCHES.push({ launch: 'base', label: `node ${path.basename(BASE)}/dist/src/main.js (base)` });

function startBase(base: string, dataDir: string, port: number): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.EVENTSTORE_URL;
  return spawn(process.execPath, [path.join(base, 'dist/src/main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

const CLOCK_TICKS_PER_S = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) of `pid` and every live descendant, from Linux /proc; null elsewhere. */
function treeCpuMs(pid: number): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone meanwhile
    }
  }
  let ticks = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const current = pending.pop() as number;
    ticks += stats.get(current)?.ticks ?? 0;
    for (const [child, stat] of stats) if (stat.ppid === current) pending.push(child);
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_S;
}

/**
 * `npm run bench -- startup [runs]`: restart to healthy, the time from spawning the service on an
 * existing DATA_DIR (the embedded PGlite, demo already made) with a warm rules cache until GET
 * /api/v1/health answers 200, for the compiled build, `npm start` and the former tsx start, `runs`
 * times each, interleaved. The CPU figure (the process tree's, at the moment of health) depends far
 * less on a busy machine than the wall time does.
 */
export async function main(args: string[]): Promise<void> {
  const runs = Math.max(1, Number(args[0] ?? 5) || 5);
  const build = Date.now();
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.build.json'], { stdio: 'inherit' });
  console.log(`build (tsc -b, nothing to do when dist/ is current): ${fmt(Date.now() - build)}`);

  const rules = Date.now();
  await (await createValidator({ workers: 0 })).close();
  console.log(`rules cache ready (compiled if it was cold): ${fmt(Date.now() - rules)}`);

  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-startup-'));
  try {
    const firstPort = await freePort();
    const first = startService('compiled', dataDir, firstPort);
    console.log(`first start on an empty DATA_DIR (initdb, migrations, demo; not counted): ${fmt(await healthy(first, firstPort, 600_000))}`);
    await stopService(first);

    const cpu = watchCpu();
    const results = new Map<Launch | 'base', { wall: number[]; cpu: number[] }>(LAUNCHES.map(({ launch }) => [launch, { wall: [], cpu: [] }]));
    for (let run = 0; run < runs; run++) {
      for (const { launch } of LAUNCHES) {
        const port = await freePort();
        const child = launch === 'base' ? startBase(BASE as string, dataDir, port) : startService(launch, dataDir, port);
        try {
          const wall = await healthy(child, port, 600_000);
          const cpuMs = child.pid === undefined ? null : treeCpuMs(child.pid);
          const result = results.get(launch) as { wall: number[]; cpu: number[] };
          result.wall.push(wall);
          if (cpuMs !== null) result.cpu.push(cpuMs);
        } finally {
          await stopService(child);
        }
      }
    }
    console.log(`\nrestart to healthy, ${runs} runs each (median, min-max):`);
    for (const { launch, label } of LAUNCHES) {
      const { wall, cpu: cpuMs } = results.get(launch) as { wall: number[]; cpu: number[] };
      const w = [...wall].sort((a, b) => a - b);
      const c = [...cpuMs].sort((a, b) => a - b);
      const cpuText = c.length ? `; CPU ${fmt(percentile(c, 50))} (${fmt(c[0] ?? 0)}-${fmt(c[c.length - 1] ?? 0)})` : '';
      console.log(`  ${label.padEnd(44)} wall ${fmt(percentile(w, 50))} (${fmt(w[0] ?? 0)}-${fmt(w[w.length - 1] ?? 0)})${cpuText}`);
    }
    console.log(cpu());
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
