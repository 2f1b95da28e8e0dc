import { expect } from 'chai';
import Koa from 'koa';
import type { BucketStore } from '../../src/platform/limits/bucket-store.ts';
import { isExemptRequest } from '../../src/platform/limits/exempt.ts';
import { createMemoryStore } from '../../src/platform/limits/memory-store.ts';
import { rateLimiter } from '../../src/platform/limits/rate-limiter.ts';
import { capturingLogger, listen } from './support.ts';

type Running = Awaited<ReturnType<typeof listen>>;

/** A tiny app: the caller names its bucket and plan in test headers; every path answers 200. */
async function appWith(store: BucketStore) {
  const captured = capturingLogger();
  const app = new Koa();
  app.use(
    rateLimiter({
      store,
      log: captured.logger,
      identify: async (ctx) => (ctx.get('x-test-key') ? { key: ctx.get('x-test-key'), plan: ctx.get('x-test-plan') || null } : null),
    }),
  );
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  return { running: await listen(app), ...captured };
}

describe('rate limiter middleware', () => {
  let running: Running;
  let base: string;
  let n = 0;
  const uniqueKey = () => `caller-${++n}`;

  const call = (path: string, key: string, plan?: string, method = 'GET') =>
    fetch(base + path, { method, headers: { 'x-test-key': key, ...(plan ? { 'x-test-plan': plan } : {}) } });
  /** n requests in a row; the statuses */
  const burst = async (count: number, path: string, key: string, plan?: string, method?: string) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await call(path, key, plan, method);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    return statuses;
  };
  const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

  beforeEach(async () => {
    running = (await appWith(createMemoryStore())).running;
    base = running.base;
  });
  afterEach(() => running.close());

  it("answers 429 once the plan's burst is spent, with Retry-After and the spec's top-level body", async () => {
    const key = uniqueKey();
    expect(count(await burst(15, '/api/v1/invoices', key, 'Solo Free'), 200)).to.equal(15);
    const res = await call('/api/v1/invoices', key, 'Solo Free');
    expect(res.status).to.equal(429);
    expect(res.headers.get('retry-after')).to.equal('6'); // 10 rpm: a token every 6 s
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(await res.json()).to.deep.equal({ error: 'rate_limit_exceeded', retry_after: 6, limit: 10, plan: 'Solo Free' });
  });

  it('sends no X-RateLimit-* headers, on a 200 or a 429', async () => {
    const key = uniqueKey();
    const ok = await call('/api/v1/invoices', key, 'Solo Free');
    await burst(20, '/api/v1/invoices', key, 'Solo Free');
    const limited = await call('/api/v1/invoices', key, 'Solo Free');
    expect([ok.status, limited.status]).to.deep.equal([200, 429]);
    for (const res of [ok, limited]) expect([...res.headers.keys()].filter((h) => h.startsWith('x-ratelimit'))).to.deep.equal([]);
  });

  it('never limits the exempt paths, with or without a trailing slash, nor /docs assets', async () => {
    const key = uniqueKey();
    for (const path of ['/api/v1/health', '/api/v1/health/', '/docs', '/docs/', '/docs/assets/swagger-ui.css', '/redoc', '/openapi.json', '/metrics']) {
      expect(count(await burst(20, path, key, 'Solo Free'), 200), path).to.equal(20);
    }
    expect((await call('/api/v1/invoices', key, 'Solo Free')).status, 'exempt requests took no tokens').to.equal(200);
  });

  it('limits paths that only look like exempt ones', () => {
    for (const path of ['/api/v1/healthz', '/api/v1/health/extra', '/docsx', '/metrics/x', '/openapi.json.bak', '/api/v1/docs']) {
      expect(isExemptRequest('GET', path), path).to.equal(false);
    }
  });

  it('never limits an OPTIONS preflight', async () => {
    const key = uniqueKey();
    expect(count(await burst(30, '/api/v1/invoices', key, 'Solo Free', 'OPTIONS'), 429)).to.equal(0);
  });

  it('never limits an unlimited plan', async () => {
    for (const plan of ['Connect Enterprise', 'Team Custom']) {
      expect(count(await burst(300, '/api/v1/invoices', uniqueKey(), plan), 200), plan).to.equal(300);
    }
  });

  it('gives an unknown plan the fallback bucket: 30 rpm, burst 50', async () => {
    const key = uniqueKey();
    expect(count(await burst(50, '/api/v1/invoices', key, 'Gold'), 200)).to.equal(50);
    const res = await call('/api/v1/invoices', key, 'Gold');
    expect(res.status).to.equal(429);
    expect(await res.json()).to.include({ limit: 30, retry_after: 2, plan: 'Gold' });
  });

  it('reports plan null when the caller has none', async () => {
    const key = uniqueKey();
    await burst(50, '/api/v1/invoices', key);
    const res = await call('/api/v1/invoices', key);
    expect(await res.json()).to.include({ limit: 30, plan: null });
  });

  it('keeps one bucket per identity', async () => {
    const [a, b] = [uniqueKey(), uniqueKey()];
    await burst(15, '/api/v1/invoices', a, 'Solo Free');
    expect((await call('/x', a, 'Solo Free')).status).to.equal(429);
    expect((await call('/x', b, 'Solo Free')).status).to.equal(200);
  });

  it('leaves a request the wiring does not identify alone', async () => {
    const statuses = await Promise.all(Array.from({ length: 80 }, () => fetch(`${base}/api/v1/invoices`).then((r) => r.status)));
    expect(count(statuses, 200)).to.equal(80);
  });

  it('lets requests through when the store fails, warning once rather than per request', async () => {
    await running.close();
    const down: BucketStore = { take: () => Promise.reject(new Error('ECONNREFUSED')), peek: () => Promise.reject(new Error('x')), close: async () => {} };
    const app = await appWith(down);
    running = app.running;
    base = running.base;
    expect(count(await burst(40, '/api/v1/invoices', uniqueKey(), 'Solo Free'), 200)).to.equal(40);
    expect(app.warnings()).to.have.length(1);
    expect(app.warnings()[0]?.msg).to.match(/rate limit store unreachable/);
  });
});
