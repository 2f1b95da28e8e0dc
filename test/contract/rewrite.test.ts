import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createEventStore, START, type EventStore } from '../../src/platform/eventstore/index.ts';
import { rewriteStoredEvents } from '../../src/platform/eventstore/postgres/index.ts';
import type { StoredEventRewrite } from '../../src/platform/eventstore/rewrite.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

// The one change the log allows (src/platform/eventstore/rewrite.ts): in place, once per store, all or nothing.
describe('rewriting stored events (Postgres, PGlite)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;

  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 2 });
    store = await createEventStore({ pool });
    const event = (type: string, data: Record<string, unknown>) => ({ id: randomUUID(), type, data, metadata: { correlationId: 'c' } });
    await store.append('a-1', [event('Told', { secret: 'one' }), event('Kept', { n: 1 })], 'no_stream');
    await store.append('b-1', [event('Told', { secret: 'two' })], 'no_stream');
  });
  after(async () => {
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  const sealing = (name: string, seal: (secret: string) => Promise<string>): StoredEventRewrite => ({
    name,
    type: 'Told',
    async rewrite(event) {
      return { type: 'ToldSealed', data: { sealed: await seal(String(event.data.secret)) }, metadata: { ...event.metadata, rewrittenFrom: event.type } };
    },
  });

  it('a failing rewrite changes nothing and is not recorded', async () => {
    const before = await store.readAll(START, 100);
    let calls = 0;
    const failing = sealing('seal', async (secret) => {
      if (++calls === 2) throw new Error('no key');
      return `sealed:${secret}`;
    });
    const error = await rewriteStoredEvents(pool, failing).then(() => null, (e: Error) => e);
    expect(error?.message).to.equal('no key');
    expect(await store.readAll(START, 100)).to.deep.equal(before);
    expect((await pool.query('SELECT count(*)::int AS n FROM event_rewrites')).rows[0].n).to.equal(0);
  });

  it('rewrites every event of the type in place, others untouched, and only once', async () => {
    const before = await store.readAll(START, 100);
    expect(await rewriteStoredEvents(pool, sealing('seal', async (secret) => `sealed:${secret}`))).to.equal(2);
    const after = await store.readAll(START, 100);
    expect(after.map((e) => [e.id, e.streamId, e.revision, e.position])).to.deep.equal(before.map((e) => [e.id, e.streamId, e.revision, e.position]));
    expect(after.map((e) => [e.type, e.data])).to.deep.equal([
      ['ToldSealed', { sealed: 'sealed:one' }], ['Kept', { n: 1 }], ['ToldSealed', { sealed: 'sealed:two' }],
    ]);
    expect(after[0]?.metadata).to.deep.equal({ correlationId: 'c', rewrittenFrom: 'Told' });
    expect(await rewriteStoredEvents(pool, sealing('seal', async () => 'again'))).to.equal(null);
    expect((await store.readAll(START, 100)).map((e) => e.data)).to.deep.equal(after.map((e) => e.data));
  });
});
