import { expect } from 'chai';
import pg from 'pg';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Postgres drops the service's connections (a restart, pg_terminate_backend): an idle pooled
 * connection then emits 'error' on its pool, which ended the whole process while the event store's
 * pool had no listener (seen in the crash-effects campaign when the shared Postgres restarted).
 * The service must stay up and answer once it has new connections.
 */
describe('Postgres drops every connection of the service', function () {
  this.timeout(120_000);
  let svc: TestService;

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip(); // PGlite runs in the process: no server to drop connections
    svc = await startTestService();
  });
  after(async () => svc?.close());

  it('stays up and answers again', async () => {
    const company = svc.demo.companies[0]!.id;
    // fill the pools with idle connections
    await Promise.all(Array.from({ length: 8 }, () => svc.call('GET', `/companies/${company}/invoices`)));
    const database = new URL(svc.services.config.databaseUrl ?? '').pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: number }>(
        'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
      expect(rows[0]!.n, 'connections dropped').to.be.greaterThan(0);
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // the pools hear of it: with no listener, this is where the process ended
    const answered = await eventually(() => svc.call('GET', `/companies/${company}/invoices`), (r) => r.status === 200, { withinMs: 30_000 });
    expect(answered.status).to.equal(200);
    const created = await svc.call('POST', `/companies/${company}/customers`, { name: 'Po výpadku s.r.o.', vat_id: '' });
    expect(created.status).to.equal(201);
  });
});
