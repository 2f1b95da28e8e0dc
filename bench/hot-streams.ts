import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { usageDecider, type CountInvoice } from '../commands/limits/usage.ts';
import { usageStream } from '../events/usage.ts';
import { UsageCounts } from '../src/application/usage.ts';
import { endPool } from '../src/db/end-pool.ts';
import { createEventStore, type EventMetadata, type EventStore } from '../src/eventstore/index.ts';
import { readAndFold } from '../src/handling/read-and-fold.ts';
import { randomIds } from '../src/ports/ids.ts';
import { onFreshPostgres } from './databases.ts';
import { percentile } from './stats.ts';

const METADATA: EventMetadata = { actor: { type: 'system', id: 'bench' } };
const SENDERS_PER_INSTANCE = 8;

const count = (organisation: string): CountInvoice => ({
  type: 'CountInvoice', organisation_id: organisation, invoice_id: randomUUID(), month: '2026-11', plan: 'Team Enterprise', source: 'api', at: new Date().toISOString(),
});

/** Counts the month up to `length` events through one instance, in large groups (fast: one append per group). */
async function fill(counts: UsageCounts, organisation: string, length: number, made: number): Promise<number> {
  const stream = usageStream(organisation, '2026-11');
  while (made < length) {
    const group = Math.min(1000, length - made);
    await Promise.all(Array.from({ length: group }, () => counts.submit(stream, count(organisation), METADATA)));
    made += group;
  }
  return made;
}

/**
 * Two instances, SENDERS_PER_INSTANCE closed-loop senders each, counting on the same month for
 * `durationMs`; each sender waits about `thinkMs` between counts (a send's own work: its HTTP,
 * validation and document), 0 = back to back.
 */
async function race(instances: UsageCounts[], organisation: string, durationMs: number, thinkMs: number): Promise<{ perSecond: number; latencies: number[] }> {
  const stream = usageStream(organisation, '2026-11');
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(instances.flatMap((instance) => Array.from({ length: SENDERS_PER_INSTANCE }, async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      await instance.submit(stream, count(organisation), METADATA);
      latencies.push(performance.now() - t);
      if (thinkMs > 0) await sleep(thinkMs * (0.5 + Math.random()));
    }
  })));
  return { perSecond: latencies.length / ((performance.now() - started) / 1000), latencies: latencies.sort((a, b) => a - b) };
}

async function timeFullRead(store: EventStore, organisation: string): Promise<number> {
  const t = performance.now();
  await readAndFold(store, usageStream(organisation, '2026-11'), usageDecider);
  return performance.now() - t;
}

/**
 * `npm run bench -- hot-streams [seconds] [lengths] [think ms]`: one organisation's monthly usage stream,
 * which every send of the organisation counts on, written by two service instances at once (two
 * pools, two group commits) as the month grows. Each instance's append conflicts with the other's;
 * the loser catches up on the events after the revision it holds. Printed beside it, in the same
 * run: what reading the whole month again costs at that length (what a conflict cost before).
 */
export async function main(args: string[]): Promise<void> {
  const durationMs = Number(args[0] ?? 5) * 1000;
  const lengths = (args[1] ?? '0,20000,60000').split(',').map(Number);
  const thinkMs = Number(args[2] ?? 10);
  await onFreshPostgres(async (url, host) => {
    const pools = [new pg.Pool({ connectionString: url, max: 8 }), new pg.Pool({ connectionString: url, max: 8 })];
    const stores = await Promise.all(pools.map((pool) => createEventStore({ pool })));
    try {
      const instances = stores.map((store) => new UsageCounts({ store, ids: randomIds }, usageDecider));
      const organisation = randomUUID();
      console.log(`\nPostgres (${host}, fresh database): one organisation's month, 2 instances × ${SENDERS_PER_INSTANCE} senders (~${thinkMs} ms between a sender's counts), ${durationMs / 1000} s per row`);
      console.log('| month length at start | counts/s, both instances | p50 / p99 per count | a whole-month read (the old conflict path) |');
      console.log('|---|---|---|---|');
      let made = 0;
      for (const length of lengths) {
        made = await fill(instances[0]!, organisation, length, made);
        const { perSecond, latencies } = await race(instances, organisation, durationMs, thinkMs);
        made += latencies.length;
        const fullRead = await timeFullRead(stores[0]!, organisation);
        console.log(`| ${length.toLocaleString('en')} | ${perSecond.toFixed(0)} | ${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 99).toFixed(1)} ms | ${fullRead.toFixed(0)} ms |`);
      }
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await Promise.all(pools.map((pool) => endPool(pool)));
    }
  });
}
