import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import Koa from 'koa';
import { createRedisStore } from '../../src/platform/limits/redis-store.ts';
import { rateLimiter } from '../../src/platform/limits/rate-limiter.ts';
import { OwnRedis, capturingLogger, hasRedisServer, listen } from './support.ts';

/**
 * The spec: "if the bucket store is unreachable the limiter lets requests through". Proven on a
 * Redis of our own that we crash, freeze and start again on the same port.
 */
describe('rate limiter over Redis, when Redis goes away and comes back', function () {
  let redis: OwnRedis | undefined;
  let store: ReturnType<typeof createRedisStore>;
  let running: Awaited<ReturnType<typeof listen>>;
  let captured: ReturnType<typeof capturingLogger>;
  let n = 0;

  before(async function () {
    if (!hasRedisServer()) {
      console.warn('    skipped: redis-server is not installed (needed to stop and start a Redis)');
      return this.skip();
    }
    redis = await OwnRedis.start();
    store = createRedisStore({ url: redis.url, keyPrefix: `test-${randomUUID()}:` });
    await store.ready();
    captured = capturingLogger();
    const app = new Koa();
    app.use(rateLimiter({ store, log: captured.logger, identify: async (ctx) => ({ key: ctx.get('x-test-key'), plan: 'Solo Free' }) }));
    app.use((ctx) => {
      ctx.body = { ok: true };
    });
    running = await listen(app);
  });
  after(async () => {
    redis?.pause(false);
    await running?.close();
    await store?.close();
    await redis?.kill();
  });

  /** 16 requests from a new caller on Solo Free (burst 15): the statuses and the slowest answer */
  async function sixteen() {
    const key = `caller-${++n}`;
    const statuses: number[] = [];
    let slowestMs = 0;
    for (let i = 0; i < 16; i++) {
      const started = Date.now();
      const res = await fetch(`${running.base}/api/v1/invoices`, { headers: { 'x-test-key': key } });
      await res.arrayBuffer();
      slowestMs = Math.max(slowestMs, Date.now() - started);
      statuses.push(res.status);
    }
    return { limited: statuses.filter((s) => s === 429).length, slowestMs };
  }

  it('limits while Redis is up', async () => {
    expect((await sixteen()).limited).to.equal(1);
  });

  it('lets every request through at once when Redis is down, logging one warning', async () => {
    await redis!.kill();
    const before = captured.warnings().length;
    const { limited, slowestMs } = await sixteen();
    expect(limited).to.equal(0);
    expect(slowestMs, 'no request waits for Redis').to.be.below(200);
    expect(captured.warnings().length - before).to.equal(1);
    expect(captured.warnings().at(-1)?.msg).to.match(/rate limit store unreachable/);
  });

  it('limits again once Redis is back on the same port, without a restart of ours', async () => {
    await redis!.start();
    await store.ready(10_000);
    expect((await sixteen()).limited).to.equal(1);
  });

  it('lets requests through after the command timeout when Redis hangs', async () => {
    redis!.pause(true);
    try {
      const started = Date.now();
      const res = await fetch(`${running.base}/api/v1/invoices`, { headers: { 'x-test-key': `caller-${++n}` } });
      expect(res.status).to.equal(200);
      expect(Date.now() - started).to.be.below(1500);
    } finally {
      redis!.pause(false);
    }
  });
});
