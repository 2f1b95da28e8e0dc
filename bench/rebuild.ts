import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../src/platform/config.ts';
import { openService } from '../src/service.ts';
import { onFreshPostgres } from './databases.ts';
import { pgbenchEventInserts } from './pgbench.ts';
import { fillHistory, type WorldSize } from './rebuild-history.ts';
import { watchCpu } from './stats.ts';

/** issue 41 item 4: every read model rebuilds a history of N events in N / 100,000 s (it was 30,000) */
const TARGET = 100_000;

/**
 * pgbench's single-row commit rate on the same server (pgbench.ts): one client, each transaction
 * one INSERT of one event-shaped row and its commit (WAL flush). It is the anchor for the rebuild
 * figures: what this machine's Postgres does when every event costs a round trip and a commit,
 * the way a projector applying events one at a time would. A rebuild that beats it many times
 * over does so by writing many events per statement and per commit.
 */
async function pgbenchAnchor(admin: string, seconds: number): Promise<string> {
  try {
    const figure = await pgbenchEventInserts(admin, 1, seconds);
    if (!figure) return 'pgbench is not installed: no anchor';
    return `${Math.round(figure.tps)} commits/s (1 client, one INSERT of one row per transaction, latency ${figure.latencyMs.toFixed(3)} ms)`;
  } catch (error) {
    return `pgbench failed: ${(error as Error).message}`;
  }
}

interface Figure {
  name: string;
  handled: number;
  seconds: number;
}

/**
 * `npm run bench -- rebuild [quick] [worlds=N] [only=name,name] [keep-indexes]`: fills a fresh Postgres database
 * with a realistic history (bench/rebuild-history.ts: N organisations, 200 by default, 20 with
 * quick), then rebuilds each read model alone (runner.rebuild, as `projections rebuild`
 * does) and prints per read model the events it handles, the time, events/s of those and of the
 * whole history (what a user waits for: history size / time), against the 100,000 events/s target (issue 41);
 * with pgbench's single-row commit rate measured in the same run as the anchor, and the CPU.
 */
export async function main(args: string[]): Promise<void> {
  const quick = args.includes('quick');
  const worlds = Number(args.find((a) => a.startsWith('worlds='))?.slice(7) ?? (quick ? 20 : 200));
  const only = args.find((a) => a.startsWith('only='))?.slice(5).split(',');
  const keepIndexes = args.includes('keep-indexes');
  const size: WorldSize = { customers: 100, invoices: 50, received: 20, sapiDocuments: 50, inbox: 100, sessions: 30 };
  const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

  const anchor = await pgbenchAnchor(admin, quick ? 5 : 10);
  await onFreshPostgres(async (url, host) => {
    const services = await openService({ ...loadConfig(), databaseUrl: url }, { log: pino({ level: 'silent' }), runProjections: false, runReactors: false });
    try {
      const filling = performance.now();
      const total = await fillHistory(services.store, worlds, size, 21);
      console.log(`rebuild bench on Postgres ${host}: ${total} events in the history (${worlds} organisations), appended in ${((performance.now() - filling) / 1000).toFixed(1)} s`);
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      const counts = new Map<string, number>(
        (await pool.query<{ type: string; n: number }>('SELECT type, count(*)::int AS n FROM events GROUP BY type')).rows.map((r) => [r.type, r.n]),
      );
      await pool.query('VACUUM ANALYZE events');
      await pool.end();
      const runner = services.projections;
      const figures: Figure[] = [];
      const cpu = watchCpu();
      for (const projector of runner.projectors.filter((p) => !only || only.includes(p.name))) {
        const handled = projector.handles.reduce((n, type) => n + (counts.get(type) ?? 0), 0);
        // runner.rebuild, as `projections rebuild` does (indexes set aside, then built once: timed
        // too); `keep-indexes` times reset + catchUp with every index kept current, for comparison
        let started: number;
        if (keepIndexes) {
          await runner.reset(projector);
          started = performance.now();
          await runner.catchUp(projector);
        } else {
          started = performance.now();
          await runner.rebuild(projector);
        }
        const seconds = (performance.now() - started) / 1000;
        figures.push({ name: projector.name, handled, seconds });
        const parked = (await runner.parked([projector.name])).length;
        if (parked > 0) console.log(`  ${projector.name}: ${parked} event(s) parked (could not be applied)`);
      }
      const busy = cpu();
      console.log(`\n${'read model'.padEnd(24)} ${'events it reads'.padStart(15)} ${'seconds'.padStart(8)} ${'its events/s'.padStart(13)} ${'history events/s'.padStart(17)}  target ${TARGET}/s`);
      for (const f of figures) {
        const own = Math.round(f.handled / f.seconds);
        const history = Math.round(total / f.seconds);
        // the target is the issue's: a history of N events rebuilt in N / TARGET s; its own events/s says how the projector itself keeps up
        const verdict = history >= TARGET ? (own >= TARGET ? 'ok' : `ok on the history; its own events below ${TARGET / 1000}k/s`) : 'MISSED';
        console.log(`${f.name.padEnd(24)} ${String(f.handled).padStart(15)} ${f.seconds.toFixed(2).padStart(8)} ${String(own).padStart(13)} ${String(history).padStart(17)}  ${verdict}`);
      }
      const all = figures.reduce((s, f) => s + f.seconds, 0);
      console.log(`every read model, one after another: ${all.toFixed(2)} s`);
      console.log(`pgbench anchor (same server, same run): ${anchor}`);
      console.log(busy);
    } finally {
      await services.close();
    }
  });
}
