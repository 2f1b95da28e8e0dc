import { expect } from 'chai';
import pg from 'pg';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * An instance opens at most its pools' sizes plus its 3 listeners (and the limiter's 4 without
 * Redis) to Postgres, under load too, and a small pool queues requests rather than failing or
 * deadlocking them: that is what lets several instances share one server's max_connections.
 */
/** the i-th Slovak VAT number past 2030000000 (ten digits divisible by 11) */
const vatNumber = (i: number) => String(Math.ceil(2_030_000_000 / 11) * 11 + 11 * i);

describe('the connections an instance opens to Postgres', function () {
  this.timeout(180_000);
  let svc: TestService;
  let admin: pg.Client;
  const url = process.env.DATABASE_URL;
  const pool = { events: 3, readModels: 2 };
  const budget = pool.events + pool.readModels + 3 + 4;

  before(async function () {
    if (!url) this.skip(); // PGlite lives in the process: there is no server to count on
    svc = await startTestService({ databasePool: pool });
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await svc?.close();
  });

  it(`stays within its budget (${budget}) under 48 concurrent writes and reads, every one answered`, async () => {
    const database = new URL(svc.services.config.databaseUrl!).pathname.slice(1);
    const company = svc.demo.companies[0]!.id;
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database]);
        peak = Math.max(peak, rows[0]?.n ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const answers = await Promise.all(Array.from({ length: 48 }, async (_, i) => {
      const created = await svc.call('POST', `/companies/${company}/customers`, { name: `Rozpočet ${i} s.r.o.`, vat_id: `SK${vatNumber(i)}` });
      const read = await svc.call('GET', `/companies/${company}/customers/${created.body.id}`);
      const listed = await svc.call('GET', `/companies/${company}/invoices`);
      return [created.status, read.status, listed.status];
    }));
    sampling = false;
    await sampler;
    expect(answers.flat().filter((s) => s >= 300), 'every request answered').to.deep.equal([]);
    expect(peak, 'connections at the peak').to.be.at.most(budget).and.to.be.at.least(pool.events);
  });
});
