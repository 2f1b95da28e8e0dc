import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createEventStore, type EventStore, type NewEvent } from '../../src/platform/eventstore/index.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { failureKind } from '../../src/platform/readmodel/failures.ts';
import { ProjectionRunner } from '../../src/platform/readmodel/projection-runner.ts';
import type { Projector } from '../../src/platform/readmodel/projector.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

class Counted1763800009100 implements MigrationInterface {
  async up(q: QueryRunner) { await q.query('CREATE TABLE counted (event_id uuid PRIMARY KEY, n smallint NOT NULL, label text)'); }
  async down(q: QueryRunner) { await q.query('DROP TABLE counted'); }
}

/**
 * Counted events are new rows (one statement with the checkpoint while following); a Counted
 * whose n does not fit smallint is a poison event there (SQLSTATE 22003). Renamed goes through
 * apply in a transaction; one without a label is a poison event there (a TypeError).
 */
const strict: Projector = {
  name: 'strict', handles: ['Counted', 'Renamed'], tables: ['counted'], migrations: [Counted1763800009100],
  async apply(events, tx) {
    for (const e of events) {
      if (e.type === 'Counted') await tx.query('INSERT INTO counted (event_id, n) VALUES ($1, $2)', [e.id, e.data.n]);
      else await tx.query('UPDATE counted SET label = $2 WHERE event_id = $1', [e.data.of, (e.data.label as string).toUpperCase()]);
    }
  },
  newRows: (events) => (events.every((e) => e.type === 'Counted')
    ? {
      rows: events.map((e) => ({ event_id: e.id, n: e.data.n })),
      insert: (source) => `INSERT INTO counted (event_id, n) SELECT event_id, n FROM jsonb_to_recordset(${source}) AS r(event_id uuid, n smallint)`,
    }
    : null),
};

const counted = (n: number): NewEvent => ({ id: crypto.randomUUID(), type: 'Counted', data: { n, organisation_id: 'org-1' }, metadata: {} });
const renamed = (of: string, label?: string): NewEvent => ({ id: crypto.randomUUID(), type: 'Renamed', data: label === undefined ? { of } : { of, label }, metadata: {} });

describe('projection runner: an event a projector cannot apply is parked, the others are applied', function () {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let db: DataSource;
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });

  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
    store = await createEventStore({ pool });
    db = await openReadModels(database.connectionString, [strict], [], 4);
  });
  after(async () => {
    await db.destroy();
    await store.close();
    await pool.end();
    await database.drop();
  });

  const append = async (event: NewEvent) => store.append(`s-${event.id}`, [event], 'no_stream');
  const ns = async () => (await db.query('SELECT n FROM counted ORDER BY n')).map((r: { n: number }) => r.n);
  const checkpoint = async () => (await db.query("SELECT position FROM projection_checkpoints WHERE name = 'strict'"))[0]?.position as string;

  it('while following, one statement of new rows: parks the row that does not fit, applies the rest, and goes on', async () => {
    const events = [counted(1), counted(2), counted(3), counted(70_000), counted(4), counted(5), counted(6)];
    for (const e of events) await append(e); // appended before the start: one batch holds them all
    const runner = new ProjectionRunner(store, db, [strict], log, { pollMs: 20 });
    await runner.start();
    const poison = (await store.readAll('', 100)).find((e) => e.id === events[3]!.id)!;
    const after = (await append(counted(7))).position;
    expect(await runner.caughtUp(after, 20_000)).to.equal(true);
    await runner.stop();
    expect(await ns()).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    expect(await checkpoint()).to.equal(after);
    const [status] = await runner.status();
    expect(status?.parked.map((p) => ({ ...p, failedAt: null }))).to.deep.equal([{
      name: 'strict', eventId: poison.id, position: poison.position, streamId: poison.streamId, type: 'Counted', organisationId: 'org-1',
      error: status?.parked[0]?.error, attempts: 1, failedAt: null,
    }]);
    expect(status?.parked[0]?.error).to.match(/out of range/);
    const logged = lines.filter((l) => l.event_id === poison.id);
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include({ projector: 'strict', stream_id: poison.streamId, type: 'Counted' });
  });

  it('while following, a batch applied in a transaction: parks the event that throws, applies the rest', async () => {
    const runner = new ProjectionRunner(store, db, [strict], log, { pollMs: 20 });
    const first = counted(10);
    const batch = [first, renamed(first.id, 'ten'), renamed(first.id), counted(11), renamed(first.id, 'still ten')];
    for (const e of batch) await append(e);
    await runner.start();
    const last = (await store.readAll('', 1000)).at(-1)!.position;
    expect(await runner.caughtUp(last, 20_000)).to.equal(true);
    await runner.stop();
    expect(await ns()).to.include.members([10, 11]);
    expect((await db.query('SELECT label FROM counted WHERE event_id = $1', [first.id]))[0].label).to.equal('STILL TEN');
    const parked = await runner.parked();
    expect(parked).to.have.length(2);
    expect(parked[1]).to.include({ eventId: batch[2]!.id, type: 'Renamed' });
    expect(parked[1]?.error).to.match(/TypeError/);
  });

  it('a rebuild (reset + catchUp) forgets the parked events, parks them again and completes', async () => {
    const runner = new ProjectionRunner(store, db, [strict], log, { catchUpBatchSize: 5000 });
    const before = await ns();
    await runner.reset(strict);
    expect(await runner.parked()).to.deep.equal([]);
    const read = await runner.catchUp(strict);
    expect(read).to.be.greaterThan(0);
    expect(await ns()).to.deep.equal(before);
    expect((await runner.parked()).map((p) => p.type)).to.deep.equal(['Counted', 'Renamed']);
    expect(await checkpoint()).to.equal((await store.readAll('', 1000)).at(-1)!.position);
  });

  it('a transient failure (connection, deadlock) is retried with backoff, never parked', async () => {
    let failures = 2;
    const flaky: Projector = {
      name: 'flaky', handles: ['Tallied'], tables: [], migrations: [],
      async apply(events, tx) {
        if (failures-- > 0) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
        for (const e of events) await tx.query('INSERT INTO counted (event_id, n) VALUES ($1, $2)', [e.id, e.data.n]);
      },
    };
    const runner = new ProjectionRunner(store, db, [flaky], log, { pollMs: 20 });
    await runner.start();
    const last = (await append({ ...counted(20), type: 'Tallied' })).position;
    expect(await runner.caughtUp(last, 20_000)).to.equal(true);
    await runner.stop();
    expect(failures).to.be.lessThan(0);
    expect(await runner.parked()).to.deep.equal([]);
    expect(await ns()).to.include(20);
  });

  it('tells transient failures from deterministic ones', () => {
    const pgError = (code: string) => Object.assign(new Error('x'), { code });
    for (const code of ['08006', '40001', '40P01', '53300', '57P01', '57014', '58030', 'XX000', '55P03', '42P01', '25006']) {
      expect(failureKind(pgError(code)), code).to.equal('transient');
    }
    for (const code of ['22003', '22P02', '23505', '23502', '54000', '21000']) expect(failureKind(pgError(code)), code).to.equal('deterministic');
    expect(failureKind(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }))).to.equal('transient');
    expect(failureKind(new Error('Connection terminated unexpectedly'))).to.equal('transient');
    expect(failureKind(Object.assign(new Error('query failed'), { driverError: pgError('08P01') }))).to.equal('transient');
    expect(failureKind(new Error('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }))).to.equal('transient');
    expect(failureKind(new AggregateError([Object.assign(new Error('c'), { code: 'ECONNREFUSED' })]))).to.equal('transient');
    expect(failureKind(new TypeError("Cannot read properties of undefined (reading 'name')"))).to.equal('deterministic');
    expect(failureKind(new RangeError('bad decimal'))).to.equal('deterministic');
    expect(failureKind('a string')).to.equal('deterministic');
  });
});
