// A rebuild sets a read model's plain secondary indexes aside and builds them once at the end
// (src/platform/readmodel/set-aside-indexes.ts). Cut short, it must not leave the read model without them:
// the next start of a runner builds them again. Unique indexes are never set aside (they back
// ON CONFLICT and the rules). PGlite by default, Postgres with DATABASE_URL.
import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { invoiceRegister } from '../../projections/invoices/projector.ts';
import { createEventStore, type EventStore } from '../../src/platform/eventstore/index.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { ProjectionRunner } from '../../src/platform/readmodel/projection-runner.ts';
import { restoreIndexes } from '../../src/platform/readmodel/set-aside-indexes.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

describe('a rebuild sets read-model indexes aside and never loses them', function () {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let db: DataSource;
  const log = pino({ level: 'silent' });
  const indexes = async () =>
    ((await db.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'invoices' ORDER BY indexname`)) as { indexname: string }[]).map((r) => r.indexname);

  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
    store = await createEventStore({ pool });
    db = await openReadModels(database.connectionString, [invoiceRegister], [], 4);
  });
  after(async () => {
    await db?.destroy();
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  it('drops only plain secondary indexes while it replays, and the next start builds them again', async () => {
    const all = await indexes();
    expect(all).to.include.members(['invoices_search', 'invoices_org_status']);
    const runner = new ProjectionRunner(store, db, [invoiceRegister], log);
    // a rebuild killed after its reset: the indexes are set aside and recorded
    await runner.reset(invoiceRegister, { setAsideIndexes: true });
    const during = await indexes();
    expect(during).to.not.include('invoices_search');
    expect(during.length).to.be.greaterThan(0); // the primary key (and any unique index) stays
    const recorded = (await db.query('SELECT index_name FROM projection_set_aside_indexes')) as unknown[];
    expect(recorded.length).to.equal(all.length - during.length);

    const next = new ProjectionRunner(store, db, [invoiceRegister], log);
    await next.start();
    await next.stop();
    expect(await indexes()).to.deep.equal(all);
    expect(await db.query('SELECT * FROM projection_set_aside_indexes')).to.deep.equal([]);
  });

  it('a rebuild ends with every index built again and none left recorded', async () => {
    const all = await indexes();
    const runner = new ProjectionRunner(store, db, [invoiceRegister], log);
    await runner.rebuild(invoiceRegister);
    expect(await indexes()).to.deep.equal(all);
    expect(await db.query('SELECT * FROM projection_set_aside_indexes')).to.deep.equal([]);
  });

  it('two runners building the set-aside indexes at once build each once', async () => {
    const all = await indexes();
    const runner = new ProjectionRunner(store, db, [invoiceRegister], log);
    await runner.reset(invoiceRegister, { setAsideIndexes: true });
    const restored = await Promise.all([restoreIndexes(db, null), restoreIndexes(db, invoiceRegister.name)]);
    expect(restored[0] + restored[1]).to.equal(all.length - 1); // every one but the primary key, by one of them
    expect(await indexes()).to.deep.equal(all);
    expect(await db.query('SELECT * FROM projection_set_aside_indexes')).to.deep.equal([]);
  });
});
