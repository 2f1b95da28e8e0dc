import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { customerDirectory } from '../../projections/customer-directory/projector.ts';
import { createEventStore, type EventStore, type NewEvent } from '../../src/platform/eventstore/index.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { ProjectionRunner } from '../../src/platform/readmodel/projection-runner.ts';
import type { Projector } from '../../src/platform/readmodel/projector.ts';
import { CustomerEntity } from '../../projections/customer-directory/entity.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

const log = pino({ level: 'silent' });
const org = '00000000-0000-4000-8000-000000000001';
const registered = (n: number): NewEvent => ({
  id: crypto.randomUUID(),
  type: 'CustomerRegistered',
  data: {
    customer_id: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`,
    organisation_id: org, company_id: null, name: `Customer ${n}`, vat_id: '', ico: null, dic: null, email: null, phone: null,
    street: '', city: 'Bratislava', postal_code: '', country_code: 'SK', peppol_id: null, note: null, registered_at: '2026-11-22T10:00:00Z',
  },
  metadata: {},
});

class Applied1763800009000 implements MigrationInterface {
  async up(q: QueryRunner) { await q.query('CREATE TABLE applied (event_id uuid NOT NULL)'); }
  async down(q: QueryRunner) { await q.query('DROP TABLE applied'); }
}
/** Records every event it is given, so doubled or lost applications show. */
const counting: Projector & { failOn: string | null } = {
  name: 'counting', handles: ['CustomerRegistered'], tables: ['applied'], migrations: [Applied1763800009000], failOn: null,
  async apply(events, tx) {
    for (const e of events) {
      await tx.query('INSERT INTO applied (event_id) VALUES ($1)', [e.id]);
      // a transient failure (the connection dropped): retried, never parked
      if (counting.failOn === e.id) throw Object.assign(new Error('connection lost mid-batch'), { code: '08006' });
    }
  },
};

class AppliedRows1763800009001 implements MigrationInterface {
  async up(q: QueryRunner) { await q.query('CREATE TABLE applied_rows (event_id uuid NOT NULL, type text NOT NULL)'); }
  async down(q: QueryRunner) { await q.query('DROP TABLE applied_rows'); }
}
/** Records its events too; a batch of CustomerRegistered only is new rows, written in one statement with the checkpoint. */
const countingRows: Projector = {
  name: 'counting-rows', handles: ['CustomerRegistered', 'CustomerNoted'], tables: ['applied_rows'], migrations: [AppliedRows1763800009001],
  async apply(events, tx) {
    for (const e of events) await tx.query('INSERT INTO applied_rows (event_id, type) VALUES ($1, $2)', [e.id, `${e.type} (apply)`]);
  },
  newRows: (events) => (events.every((e) => e.type === 'CustomerRegistered')
    ? {
      rows: events.map((e) => ({ event_id: e.id, type: e.type })),
      insert: (source) => `INSERT INTO applied_rows (event_id, type) SELECT event_id, type FROM jsonb_to_recordset(${source}) AS r(event_id uuid, type text)`,
    }
    : null),
};

describe('projection runner', function () {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let db: DataSource;
  const projectors = [customerDirectory, counting, countingRows];

  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
    store = await createEventStore({ pool });
    db = await openReadModels(database.connectionString, projectors, [CustomerEntity], 4);
  });
  after(async () => {
    await db.destroy();
    await store.close();
    await pool.end();
    await database.drop();
  });

  const countRows = async (table: string) => Number((await db.query(`SELECT count(*) AS n FROM ${table}`))[0].n);

  it('projects appended events and answers read-your-writes once caught up', async () => {
    const runner = new ProjectionRunner(store, db, projectors, log, { pollMs: 50 });
    await runner.start();
    let last = '';
    for (let i = 0; i < 5; i++) last = (await store.append(`customer-${i}`, [registered(i)], 'no_stream')).position;
    expect(await runner.caughtUp(last, 5000)).to.equal(true);
    expect(await countRows('customers')).to.equal(5);
    expect(await countRows('applied')).to.equal(5);
    await runner.stop();
  });

  it('keeps rows and checkpoint together: a connection lost mid-batch applies nothing of it', async () => {
    const events = [registered(10), registered(11), registered(12)];
    for (const [i, e] of events.entries()) await store.append(`customer-${10 + i}`, [e], 'no_stream');
    counting.failOn = events[1]!.id;
    const runner = new ProjectionRunner(store, db, [counting], log);
    await runner.start();
    let failed = false;
    try { await runner.catchUp(counting); } catch { failed = true; }
    expect(failed).to.equal(true);
    expect(await countRows('applied')).to.equal(5);
    counting.failOn = null;
    await runner.catchUp(counting);
    expect(await countRows('applied')).to.equal(8);
    await runner.stop();
  });

  it('two runners on one projector never apply an event twice', async () => {
    for (let i = 20; i < 60; i++) await store.append(`customer-${i}`, [registered(i)], 'no_stream');
    const a = new ProjectionRunner(store, db, [counting], log, { batchSize: 7 });
    const b = new ProjectionRunner(store, db, [counting], log, { batchSize: 5 });
    await Promise.all([a.start(), b.start()]);
    await Promise.all([a.catchUp(counting), b.catchUp(counting)]);
    expect(await countRows('applied')).to.equal(48);
    const doubled = await db.query('SELECT event_id FROM applied GROUP BY event_id HAVING count(*) > 1');
    expect(doubled).to.deep.equal([]);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('catches up a projector that was never started (CLI rebuild on a new database) and stops at the head', async () => {
    const fresh: Projector = { ...customerDirectory, name: 'never-started' };
    const runner = new ProjectionRunner(store, db, [fresh], log, { batchSize: 3 });
    const events = await runner.catchUp(fresh);
    expect(events).to.equal((await store.readAll('', 10_000)).length);
    expect(await runner.catchUp(fresh)).to.equal(0);
  });

  it('rebuilds a read model from history to the same rows', async () => {
    const runner = new ProjectionRunner(store, db, [customerDirectory], log);
    await runner.start();
    await runner.catchUp(customerDirectory);
    const before = await db.query('SELECT id, name, version FROM customers ORDER BY id');
    await runner.reset(customerDirectory);
    expect(await countRows('customers')).to.equal(0);
    await runner.catchUp(customerDirectory);
    expect(await db.query('SELECT id, name, version FROM customers ORDER BY id')).to.deep.equal(before);
    const [status] = await runner.status();
    expect(status).to.include({ name: 'customer-directory', lag: 0 });
    await runner.stop();
  });
  it('passes events it does not handle without a write each time, and writes that scan on stop', async () => {
    const runner = new ProjectionRunner(store, db, [counting], log, { pollMs: 20 });
    await runner.start();
    const checkpoint = async () => (await db.query("SELECT position FROM projection_checkpoints WHERE name = 'counting'"))[0].position as string;
    const before = await checkpoint();
    let last = '';
    for (let i = 0; i < 5; i++) last = (await store.append(`other-${i}`, [{ ...registered(90), type: 'SomethingElse' }], 'no_stream')).position;
    expect(await runner.caughtUp(last, 5000)).to.equal(true);
    expect(await checkpoint()).to.equal(before);
    // a handled event after idle ones: applied once, and the checkpoint jumps past both
    const handled = (await store.append('customer-70', [registered(70)], 'no_stream')).position;
    expect(await runner.caughtUp(handled, 5000)).to.equal(true);
    expect(await checkpoint()).to.equal(handled);
    expect((await db.query('SELECT count(*) AS n FROM applied GROUP BY event_id HAVING count(*) > 1')).length).to.equal(0);
    const idle = (await store.append('other-9', [{ ...registered(91), type: 'SomethingElse' }], 'no_stream')).position;
    expect(await runner.caughtUp(idle, 5000)).to.equal(true);
    await runner.stop();
    expect(await checkpoint()).to.equal(idle);
  });

  describe('a batch of new rows, in one statement with its checkpoint', () => {
    const checkpointOf = async (name: string) => (await db.query('SELECT position FROM projection_checkpoints WHERE name = $1', [name]))[0]?.position as string;
    const appliedRows = async () => db.query('SELECT type, count(*)::int AS n, count(DISTINCT event_id)::int AS events FROM applied_rows GROUP BY type ORDER BY type');
    const registeredSoFar = async () => (await store.readAll('', 10_000)).filter((e) => e.type === 'CustomerRegistered').length;

    it('inserts the rows and moves the checkpoint together', async () => {
      const runner = new ProjectionRunner(store, db, [countingRows], log, { pollMs: 20 });
      await runner.start();
      let last = '';
      for (let i = 100; i < 105; i++) last = (await store.append(`customer-${i}`, [registered(i)], 'no_stream')).position;
      expect(await runner.caughtUp(last, 5000)).to.equal(true);
      await runner.stop();
      expect(await checkpointOf('counting-rows')).to.equal(last);
      const count = await registeredSoFar();
      expect(await appliedRows()).to.deep.equal([{ type: 'CustomerRegistered', n: count, events: count }]);
    });

    it('runs apply in a transaction for a batch that is more than new rows', async () => {
      const runner = new ProjectionRunner(store, db, [countingRows], log, { pollMs: 20 });
      await runner.start();
      await runner.caughtUp((await store.readAll('', 10_000)).at(-1)?.position ?? '', 5000);
      await db.query('TRUNCATE applied_rows');
      const noted = { ...registered(110), id: crypto.randomUUID(), type: 'CustomerNoted' };
      const last = (await store.appendToNewStreams([{ streamId: 'customer-110', events: [registered(110), noted] }]))[0]?.position ?? '';
      expect(await runner.caughtUp(last, 5000)).to.equal(true);
      await runner.stop();
      expect(await appliedRows()).to.deep.equal([
        { type: 'CustomerNoted (apply)', n: 1, events: 1 },
        { type: 'CustomerRegistered (apply)', n: 1, events: 1 },
      ]);
      expect(await checkpointOf('counting-rows')).to.equal(last);
    });

    it('a runner that finds the checkpoint moved by another inserts nothing from its batch and follows it', async () => {
      await db.query('TRUNCATE applied_rows');
      await db.query("UPDATE projection_checkpoints SET position = '' WHERE name = 'counting-rows'");
      const a = new ProjectionRunner(store, db, [countingRows], log, { batchSize: 7 });
      const b = new ProjectionRunner(store, db, [countingRows], log, { batchSize: 5 });
      await a.start(); // a holds the empty checkpoint
      await b.start();
      await b.catchUp(countingRows); // b moves it to the head
      for (let i = 120; i < 130; i++) await store.append(`customer-${i}`, [registered(i)], 'no_stream');
      await a.catchUp(countingRows); // a's first batch expects '' and finds b's position
      const head = (await store.readAll('', 10_000)).at(-1)?.position;
      expect(await checkpointOf('counting-rows')).to.equal(head);
      // every handled event once (the batch with CustomerNoted went through apply)
      const handled = (await store.readAll('', 10_000)).filter((e) => countingRows.handles.includes(e.type)).length;
      expect(await db.query('SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS events FROM applied_rows')).to.deep.equal([{ n: handled, events: handled }]);
      await Promise.all([a.stop(), b.stop()]);
    });
  });

  it('hands apply what it kept from the batch before in a catch-up, and nothing after a batch failed', async () => {
    const received: unknown[] = [];
    let poison: string | null = null;
    const keeping: Projector = {
      name: 'keeping', handles: ['KeptProbe'], tables: [], migrations: [],
      async apply(events, _tx, kept) {
        received.push(kept);
        if (events.some((e) => e.id === poison)) throw new TypeError('a payload it cannot read');
        return (typeof kept === 'number' ? kept : 0) + events.length;
      },
    };
    const probes = Array.from({ length: 8 }, (): NewEvent => ({ id: crypto.randomUUID(), type: 'KeptProbe', data: {}, metadata: {} }));
    for (const [i, e] of probes.entries()) await store.append(`kept-probe-${i}`, [e], 'no_stream');
    poison = probes[4]!.id;
    const runner = new ProjectionRunner(store, db, [keeping], log, { catchUpBatchSize: 2 });
    expect(await runner.catchUp(keeping)).to.equal(8);
    // batches [0 1] [2 3] [4 5]: the third fails, is applied in halves ([4] parked, [5] alone), then [6 7]
    expect(received).to.deep.equal([undefined, 2, 4, undefined, undefined, undefined]);
    expect((await runner.parked(['keeping'])).map((p) => p.eventId)).to.deep.equal([poison]);
    // a new catch-up starts from nothing kept
    received.length = 0;
    await runner.reset(keeping);
    poison = null;
    await runner.catchUp(keeping);
    expect(received).to.deep.equal([undefined, 2, 4, 6]);
  });
});
