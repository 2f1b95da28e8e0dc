import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { customerDirectory } from '../../projections/customer-directory/projector.ts';
import { CustomerEntity } from '../../projections/customer-directory/entity.ts';
import { createEventStore, type EventStore, type Position, type RecordedEvent } from '../../src/platform/eventstore/index.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { ProjectionRunner } from '../../src/platform/readmodel/projection-runner.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

const org = '00000000-0000-4000-8000-000000000001';

/**
 * On Postgres an append is announced once it commits, but readers see it only once every older
 * transaction has ended (postgres/position.ts): a read right after the announcement can come back
 * without it, and when every client is waiting on that event (read-your-writes), no further append
 * comes to wake the projector. The store here hides appends from readAll until released, as an
 * open transaction would, so the rule holds on both databases.
 */
describe('a projector whose read came back below an announced append', function () {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let db: DataSource;

  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
    store = await createEventStore({ pool });
    db = await openReadModels(database.connectionString, [customerDirectory], [CustomerEntity], 4);
  });
  after(async () => {
    await db.destroy();
    await store.close();
    await pool.end();
    await database.drop();
  });

  it('reads again soon instead of sleeping its poll interval, with no other append to wake it', async () => {
    let hidden = true;
    let emptyReads = 0;
    const holdingBack = new Proxy(store, {
      get(target, key, receiver) {
        if (key !== 'readAll') return Reflect.get(target, key, receiver) as unknown;
        return async (after: Position, limit: number, onlyDataOf?: readonly string[]): Promise<RecordedEvent[]> => {
          if (!hidden) return target.readAll(after, limit, onlyDataOf);
          emptyReads++;
          return [];
        };
      },
    });
    // a poll interval far beyond the wait below: only the announced position can end the sleep
    const runner = new ProjectionRunner(holdingBack, db, [customerDirectory], pino({ level: 'silent' }), { pollMs: 600_000 });
    await runner.start();
    try {
      const { position } = await store.append('customer-announced', [{
        id: crypto.randomUUID(), type: 'CustomerRegistered', metadata: {},
        data: {
          customer_id: '00000000-0000-4000-9000-000000000001', organisation_id: org, company_id: null, name: 'Odberateľ', vat_id: '', ico: null, dic: null,
          email: null, phone: null, street: '', city: 'Bratislava', postal_code: '', country_code: 'SK', peppol_id: null, note: null, registered_at: '2026-11-22T10:00:00Z',
        },
      }], 'no_stream');
      // the projector woke for the append and found nothing it could see yet
      while (emptyReads < 2) await new Promise((resolve) => setImmediate(resolve));
      hidden = false; // the transaction that held readers back ended; nothing is appended after it
      expect(await runner.caughtUp(position, 15_000, [customerDirectory.name])).to.equal(true);
      const rows = (await db.query('SELECT count(*)::int AS n FROM customers')) as { n: number }[];
      expect(rows[0]?.n).to.equal(1);
    } finally {
      await runner.stop();
    }
  });
});
