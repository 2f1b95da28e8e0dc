import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { customerFields } from '../commands/customers/customer-fields.ts';
import { customerDecider } from '../commands/customers/decider.ts';
import { customerStream } from '../events/customers.ts';
import { CustomerEntity } from '../projections/customer-directory/entity.ts';
import { customerDirectory } from '../projections/customer-directory/projector.ts';
import { endPool } from '../src/platform/db/end-pool.ts';
import { createEventStore, type EventStore } from '../src/platform/eventstore/index.ts';
import { handleCommand } from '../src/platform/handling/command-handler.ts';
import { randomIds } from '../src/platform/ports/ids.ts';
import { openReadModels } from '../src/platform/readmodel/data-source.ts';
import { ProjectionRunner } from '../src/platform/readmodel/projection-runner.ts';
import { benchAppends } from './eventstore-appends.ts';
import { onEmbedded, onFreshPostgres } from './databases.ts';

const fields = customerFields({ name: 'Bench Odberateľ s.r.o.', vat_id: '', city: 'Bratislava' });

/** Single-event commands on distinct streams, as a handler runs them: read stream, decide, append. */
async function benchCommands(store: EventStore, writers: number, durationMs: number): Promise<number> {
  const started = performance.now();
  const deadline = started + durationMs;
  let total = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < deadline) {
        const id = randomUUID();
        await handleCommand({ store, ids: randomIds }, customerStream(id), customerDecider, {
          type: 'RegisterCustomer', customer_id: id, organisation_id: id, company_id: null, fields, at: new Date().toISOString(),
        }, { metadata: { actor: { type: 'system', id: 'bench' } } });
        total++;
      }
    }),
  );
  return Math.round(total / ((performance.now() - started) / 1000));
}

/** Fills the store with `count` CustomerRegistered events (16 writers), then times a rebuild of the customer directory. */
async function benchRebuild(url: string, store: EventStore, count: number): Promise<{ events: number; perSecond: number }> {
  const log = pino({ level: 'silent' });
  let made = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (made < count) {
        made++;
        const id = randomUUID();
        const data = { customer_id: id, organisation_id: id, company_id: null, ...fields, registered_at: new Date().toISOString() };
        await store.append(customerStream(id), [{ id: randomUUID(), type: 'CustomerRegistered', data, metadata: {} }], 'no_stream');
      }
    }),
  );
  const db = await openReadModels(url, [customerDirectory], [CustomerEntity], 4);
  const runner = new ProjectionRunner(store, db, [customerDirectory], log);
  try {
    await runner.reset(customerDirectory);
    const started = performance.now();
    const events = await runner.catchUp(customerDirectory);
    return { events, perSecond: Math.round(events / ((performance.now() - started) / 1000)) };
  } finally {
    await db.destroy();
  }
}

async function benchOne(label: string, url: string, durationMs: number, rebuildEvents: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 16 });
  const store = await createEventStore({ pool });
  try {
    const raw1 = await benchAppends(store, 1, durationMs);
    const raw16 = await benchAppends(store, 16, durationMs);
    const cmd1 = await benchCommands(store, 1, durationMs);
    const cmd16 = await benchCommands(store, 16, durationMs);
    const rebuild = await benchRebuild(url, store, rebuildEvents);
    console.log(`\n${label}`);
    console.log(`  appends/s (single-event, distinct streams)   1 writer: ${raw1.appendsPerSecond}   16 writers: ${raw16.appendsPerSecond}`);
    console.log(`  commands/s (read + decide + append)          1 writer: ${cmd1}   16 writers: ${cmd16}`);
    console.log(`  projection rebuild (customer directory)      ${rebuild.perSecond} events/s over ${rebuild.events} events in the store`);
  } finally {
    await store.close();
    await endPool(pool);
  }
}

/**
 * `npm run bench -- eventstore [seconds]`: append and command throughput with 1 and 16 writers,
 * and projection rebuild speed, on the embedded PGlite and on Postgres (DATABASE_URL, else the
 * local server at postgres://postgres@127.0.0.1:5432/postgres), each in a fresh database.
 * Targets (Postgres, this 2-core machine): >= 3,000 appends/s with 16 writers; rebuild >= 20,000 events/s.
 */
export async function main(args: string[]): Promise<void> {
  const durationMs = Number(args[0] ?? 5) * 1000;
  console.log(`eventstore bench: ${durationMs / 1000} s per throughput figure`);
  await onEmbedded((url) => benchOne('PGlite (embedded, in memory)', url, durationMs, 20_000));
  await onFreshPostgres((url, host) => benchOne(`Postgres (${host}, fresh database)`, url, durationMs, 100_000));
}
