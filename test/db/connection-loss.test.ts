import { expect } from 'chai';
import pg from 'pg';
import type { Logger } from 'pino';
import { resilientPool } from '../../src/platform/db/resilient-pool.ts';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Postgres restarting (or an operator's pg_terminate_backend) closes every connection the service
 * holds, idle ones too. An idle pooled connection that dies emits 'error' on its pool; a pool
 * without a listener made that an uncaught exception, and the whole service died with Postgres
 * (found by `npm run campaign -- pg-restart`). The service must live on and reconnect by itself.
 */
describe('the service survives its Postgres connections being cut', function () {
  this.timeout(120_000);
  let svc: TestService;
  const url = process.env.DATABASE_URL;

  before(async function () {
    if (!url) this.skip(); // PGlite in the process has no server to lose
    svc = await startTestService();
  });
  after(async () => svc?.close());

  it('answers commands again once the connections are back, without dying', async () => {
    const company = svc.demo.companies[0]!;
    const customer = await svc.call('POST', `/companies/${company.id}/customers`, { name: 'Pred výpadkom s.r.o.', vat_id: 'SK2020000004' });
    expect(customer.status).to.equal(201);
    // the pools now hold idle connections; cut all of them at once, as a restart does
    const database = new URL(svc.services.config.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const cut = await admin.query('SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
    await admin.end();
    expect(cut.rows[0].n).to.be.greaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the idle clients' errors arrive

    const body = { issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer.body.id, lines: [{ item_name: 'Po výpadku', quantity: '1', unit_price: '10.00', vat_rate: '23' }] };
    const created = await eventually(() => svc.call('POST', `/companies/${company.id}/invoices`, body), (r) => r.status === 201, { withinMs: 10_000, everyMs: 100, what: 'a command answered after the cut' });
    expect(created.body.status).to.equal('draft');
    expect((await svc.call('GET', `/companies/${company.id}/invoices/${created.body.id}`)).status).to.equal(200);
  });
});

describe('resilientPool', function () {
  this.timeout(60_000);
  const url = process.env.DATABASE_URL;
  before(function () {
    if (!url) this.skip();
  });

  it('a checked-out connection cut between two queries does not end the process; the pool connects anew', async () => {
    const warned: unknown[] = [];
    const pool = resilientPool({ connectionString: url, max: 2 }, { warn: (...args: unknown[]) => void warned.push(args) } as unknown as Pick<Logger, 'warn'>);
    const held = await pool.connect();
    const pid = (await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();
    await new Promise((resolve) => setTimeout(resolve, 300)); // its 'error' arrives while nobody queries it
    const failed = await held.query('SELECT 1').then(() => null, (error: unknown) => error);
    expect(failed).to.be.instanceOf(Error);
    held.release(failed as Error);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).to.equal(1);
    expect(warned.length).to.be.greaterThan(0);
    await pool.end();
  });
});
