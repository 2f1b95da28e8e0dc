import { expect } from 'chai';
import { createPostgresStore } from '../../src/platform/limits/postgres-store.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

/** The buckets instances share through Postgres when there is no Redis (the same rules as the Redis store). */
describe('Postgres bucket store', () => {
  if (!process.env.DATABASE_URL) {
    it('not run on PGlite — one process, whose buckets stay in memory; set DATABASE_URL to run it on Postgres');
    return;
  }
  let db: TestDatabase;
  const stores: ReturnType<typeof createPostgresStore>[] = [];
  const store = () => {
    const s = createPostgresStore({ url: db.connectionString });
    stores.push(s);
    return s;
  };
  before(async () => {
    db = await freshDatabase();
  });
  after(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await db.drop();
  });

  it('limits a key to its burst and tells when a token is back', async () => {
    const s = store();
    for (let i = 0; i < 15; i++) expect((await s.take('a', 10, 15)).allowed).to.equal(true);
    expect(await s.take('a', 10, 15)).to.deep.equal({ allowed: false, retryAfterSeconds: 6 });
    expect((await s.take('b', 10, 15)).allowed, 'another key').to.equal(true);
  });

  it('refills at rpm/60 tokens per second', async () => {
    const s = store();
    for (let i = 0; i < 3; i++) await s.take('r', 600, 3); // 10 tokens a second
    expect((await s.take('r', 600, 3)).allowed).to.equal(false);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await s.take('r', 600, 3)).allowed).to.equal(true);
  });

  it('peeks without taking', async () => {
    const s = store();
    expect((await s.peek('p', 10, 2)).allowed, 'a bucket never seen is full').to.equal(true);
    await s.take('p', 10, 2);
    await s.take('p', 10, 2);
    const peeked = await s.peek('p', 10, 2);
    expect(peeked.allowed).to.equal(false);
    expect(peeked.retryAfterSeconds).to.be.within(5, 6);
  });

  it('two instances (stores) share one bucket, taken at once without losing a take', async () => {
    const [one, two] = [store(), store()];
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).take('shared', 1, 25)));
    expect(answers.filter((a) => a.allowed)).to.have.length(25);
    expect((await one.peek('shared', 1, 25)).allowed).to.equal(false);
  });

  it('leaves unlimited rates alone', async () => {
    expect(await store().take('u', -1, -1)).to.deep.equal({ allowed: true, retryAfterSeconds: 0 });
  });
});
