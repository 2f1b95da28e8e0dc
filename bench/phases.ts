// Where a request's time goes, for profiling a bench: wraps methods of the running service's own objects
// (never its code) and sums the wall-clock time spent in each, with how many calls there were.
import { Session } from 'node:inspector/promises';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';

interface Phase { ms: number; calls: number }

type AsyncMethod = (...args: never[]) => Promise<unknown>;

export interface PhaseTimer {
  reset(): void;
  /** one line per phase: average ms per `per` unit (e.g. per credit note) and calls per unit */
  report(per: number, unit: string): string;
}

/** Wraps `object[method]` (an async method) so that its time is summed under `name`. */
function wrap(phases: Map<string, Phase>, name: string, object: object, method: string): void {
  const target = object as Record<string, AsyncMethod>;
  const original = target[method];
  if (typeof original !== 'function') throw new Error(`${name}: no method ${method}`);
  phases.set(name, { ms: 0, calls: 0 });
  target[method] = async function timed(this: unknown, ...args: never[]) {
    const started = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      const phase = phases.get(name)!;
      phase.ms += performance.now() - started;
      phase.calls++;
    }
  };
}

/** Times the named methods: [label, object, method name]. */
export function timePhases(methods: readonly [string, object, string][]): PhaseTimer {
  const phases = new Map<string, Phase>();
  for (const [name, object, method] of methods) wrap(phases, name, object, method);
  return {
    reset: () => phases.forEach((p) => Object.assign(p, { ms: 0, calls: 0 })),
    report: (per, unit) => [...phases].map(([name, p]) =>
      `${name.padEnd(44)} ${(p.ms / Math.max(per, 1)).toFixed(1).padStart(7)} ms/${unit}   ${(p.calls / Math.max(per, 1)).toFixed(2)} calls/${unit}`).join('\n'),
  };
}

/**
 * Counts statements sent to Postgres by this process (pg's Client.query, which TypeORM uses too)
 * and the connections `pool` opens: a pool that opens connections under load pays a Postgres
 * backend start for each.
 */
export function countPostgres(pool: pg.Pool | null): PhaseTimer {
  const counts = { queries: 0, connections: 0 };
  const statements = new Map<string, number>();
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = prototype.query;
  prototype.query = function counted(this: unknown, ...args: unknown[]) {
    counts.queries++;
    const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    const full = typeof first === 'string' ? first : first?.text ?? '?';
    // a stream read is counted by the stream's family (its id up to the first '-' or ':')
    const values = (typeof first === 'object' ? first?.values : args[1]) as unknown[] | undefined;
    const family = /FROM events WHERE stream_id = \$1/.test(full) && typeof values?.[0] === 'string' ? ` [${values[0].split(/[-:]/)[0]}]` : '';
    const text = full.replace(/\s+/g, ' ').trim().slice(0, 70) + family;
    statements.set(text, (statements.get(text) ?? 0) + 1);
    return query.apply(this, args);
  };
  pool?.on('connect', () => counts.connections++);
  return {
    reset: () => {
      Object.assign(counts, { queries: 0, connections: 0 });
      statements.clear();
    },
    report: (per, unit) => [
      `${'statements sent to Postgres'.padEnd(44)} ${(counts.queries / Math.max(per, 1)).toFixed(1).padStart(7)} per ${unit}, the most sent:`,
      ...[...statements].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([text, n]) => `  ${(n / Math.max(per, 1)).toFixed(2).padStart(6)}  ${text}`),
      `${'event store connections opened'.padEnd(44)} ${String(counts.connections).padStart(7)} (${(counts.connections / Math.max(per, 1)).toFixed(2)} per ${unit})`,
    ].join('\n'),
  };
}

/** A V8 CPU profile of this process while `during` runs, written to `file` (open it in Chrome DevTools or speedscope). */
export async function cpuProfile<T>(file: string, during: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await during();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}

/**
 * CPU milliseconds used so far by the local Postgres server's processes (Linux /proc; null
 * elsewhere). Backends that exit in between are missed, so it is a floor.
 */
export function postgresServerCpuMs(): number | null {
  try {
    let ticks = 0;
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (!stat.includes('(postgres)')) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
      } catch {
        // gone meanwhile
      }
    }
    return ticks * 10; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}
