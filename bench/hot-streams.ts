import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { usageDecider, type CountInvoice } from '../commands/limits/usage.ts';
import { sapiClientDecider } from '../commands/sapi/client.ts';
import { sapiClientStream } from '../events/tenancy.ts';
import { usageStream } from '../events/usage.ts';
import { UsageCounts } from '../src/modules/usage/usage.ts';
import { endPool } from '../src/platform/db/end-pool.ts';
import { createEventStore, type EventMetadata, type EventStore } from '../src/platform/eventstore/index.ts';
import { readAndFold } from '../src/platform/handling/read-and-fold.ts';
import { randomIds } from '../src/platform/ports/ids.ts';
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

/** A SAPI client's stream after `failures` failed attempts (anybody who knows the id can add them): a read, folded whole and from its snapshot. */
async function longClientStream(store: EventStore, failures: number): Promise<{ whole: number; snapshot: number }> {
  const clientId = `sapi_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const stream = sapiClientStream(clientId);
  const at = new Date().toISOString();
  await store.append(stream, [{ id: randomUUID(), type: 'SapiClientIssued', data: { client_id: clientId, organisation_id: randomUUID(), company_id: randomUUID(), participant_id: '9950:sk2022131705svctest', secret_hash: 'a'.repeat(64), issued_at: at }, metadata: METADATA }], 'no_stream');
  for (let made = 0; made < failures; made += 1000) {
    // 4 minutes apart: never 5 within 15 minutes, so never locked (a patient attacker)
    const batch = Array.from({ length: Math.min(1000, failures - made) }, (_, i) => ({
      id: randomUUID(), type: 'SapiClientAuthenticationFailed', data: { client_id: clientId, ip: '192.0.2.1', failed_at: new Date(Date.parse(at) + (made + i) * 240_000).toISOString() }, metadata: METADATA,
    }));
    await store.append(stream, batch, made);
  }
  const time = async (decider: typeof sapiClientDecider) => {
    const t = performance.now();
    for (let i = 0; i < 5; i++) await readAndFold(store, stream, decider);
    return (performance.now() - t) / 5;
  };
  const whole = await time({ ...sapiClientDecider, snapshot: undefined });
  await readAndFold(store, stream, sapiClientDecider); // the first read is whole, and keeps its snapshot
  return { whole, snapshot: await time(sapiClientDecider) };
}

/**
 * `npm run bench -- hot-streams [seconds] [lengths] [think ms]`: one organisation's monthly usage stream,
 * which every send of the organisation counts on, written by two service instances at once (two
 * pools, two group commits) as the month grows. Each instance's append conflicts with the other's;
 * the loser catches up on the events after the revision it holds. Printed beside it, in the same
 * run: what reading the whole month again costs at that length (what a conflict cost before).
 * Then a long stream of another kind: a SAPI client's after many failed attempts, read as a token
 * request reads it, folded whole and from its snapshot (Decider.snapshot).
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
      console.log('\n| failed attempts on a SAPI client\'s stream | its read, folded whole | from its snapshot |');
      console.log('|---|---|---|');
      for (const failures of [1_000, 20_000, 100_000]) {
        const { whole, snapshot } = await longClientStream(stores[0]!, failures);
        console.log(`| ${failures.toLocaleString('en')} | ${whole.toFixed(1)} ms | ${snapshot.toFixed(1)} ms |`);
      }
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await Promise.all(pools.map((pool) => endPool(pool)));
    }
  });
}
