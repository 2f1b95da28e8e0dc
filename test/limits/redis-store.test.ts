import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { createRedisStore } from '../../src/platform/limits/redis-store.ts';
import { hasRedisServer, sharedRedis } from './support.ts';

describe('Redis bucket store', function () {
  let redis: { url: string; stop(): Promise<void> };
  let inspect: Redis;
  const prefix = `test-ratelimit-${randomUUID()}:`;
  const stores: ReturnType<typeof createRedisStore>[] = [];
  const store = async () => {
    const s = createRedisStore({ url: redis.url, keyPrefix: prefix });
    stores.push(s);
    await s.ready();
    return s;
  };

  before(async function () {
    if (!hasRedisServer()) {
      console.warn('    skipped: redis-server is not installed (needed for the Redis bucket store tests)');
      return this.skip();
    }
    redis = await sharedRedis();
    inspect = new Redis(redis.url);
  });
  after(async () => {
    await Promise.all(stores.map((s) => s.close()));
    if (inspect) {
      const keys = await inspect.keys(`${prefix}*`);
      if (keys.length) await inspect.del(...keys);
      await inspect.quit();
    }
    await redis?.stop();
  });

  it('limits a key to its burst and tells when a token is back', async () => {
    const s = await store();
    for (let i = 0; i < 15; i++) expect((await s.take('a', 10, 15)).allowed).to.equal(true);
    expect(await s.take('a', 10, 15)).to.deep.equal({ allowed: false, retryAfterSeconds: 6 });
    expect((await s.take('b', 10, 15)).allowed, 'another key').to.equal(true);
  });

  it('refills at rpm/60 tokens per second', async () => {
    const s = await store();
    for (let i = 0; i < 3; i++) await s.take('r', 600, 3); // 10 tokens a second
    expect((await s.take('r', 600, 3)).allowed).to.equal(false);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await s.take('r', 600, 3)).allowed).to.equal(true);
  });

  it('peeks without taking', async () => {
    const s = await store();
    await s.take('p', 10, 1);
    expect(await s.peek('p', 10, 1)).to.deep.equal({ allowed: false, retryAfterSeconds: 6 });
    expect((await s.peek('never', 10, 1)).allowed).to.equal(true);
    expect(await inspect.exists(`${prefix}never`), 'a peek writes nothing').to.equal(0);
  });

  it('lets an idle bucket expire once it would be full again', async () => {
    const s = await store();
    await s.take('idle', 60, 100); // one token short: full again in 1 s
    const ttl = await inspect.pttl(`${prefix}idle`);
    expect(ttl).to.be.within(1000, 2000);
  });

  it('never touches Redis for an unlimited plan', async () => {
    const s = await store();
    for (let i = 0; i < 100; i++) expect((await s.take('u', -1, -1)).allowed).to.equal(true);
    expect(await inspect.exists(`${prefix}u`)).to.equal(0);
  });

  it('shares one bucket between instances', async () => {
    const [one, two] = [await store(), await store()];
    for (let i = 0; i < 3; i++) expect((await one.take('shared', 1, 5)).allowed).to.equal(true);
    for (let i = 0; i < 2; i++) expect((await two.take('shared', 1, 5)).allowed).to.equal(true);
    expect((await two.take('shared', 1, 5)).allowed).to.equal(false);
    expect((await one.take('shared', 1, 5)).allowed).to.equal(false);
  });

  it('allows exactly the burst to 50 parallel takes from two instances', async () => {
    const [one, two] = [await store(), await store()];
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? one : two).take('race', 1, 20)));
    expect(results.filter((r) => r.allowed)).to.have.length(20);
  });
});
