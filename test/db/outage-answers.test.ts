import { expect } from 'chai';
import pg from 'pg';
import { isDatabaseUnavailable } from '../../src/platform/db/outage.ts';
import { eventually } from '../support/poll.ts';
import { sapiError, sapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * While the database is out of reach, a request fails through no fault of its own: it is answered
 * 503 with Retry-After in the door's error shape, not 500 (the pg-restart campaign saw 500s), and
 * the same request succeeds once the database is back.
 */
describe('requests while the database cannot be reached', function () {
  this.timeout(120_000);
  let svc: TestService;
  let admin: pg.Client;
  let database = '';
  const url = process.env.DATABASE_URL;

  before(async function () {
    if (!url) this.skip(); // PGlite lives in the process: there is no server to lose
    svc = await startTestService();
    database = new URL(svc.services.config.databaseUrl!).pathname.slice(1);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  after(async () => {
    if (admin) {
      await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await svc?.close();
  });

  const cutOff = async (allow: boolean) => {
    await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS ${allow}`);
    if (!allow) await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
  };

  it('answers 503 service_unavailable with Retry-After on both doors, and serves again once it is back', async () => {
    const company = svc.demo.companies[0]!;
    const sapi = await sapiTestClient(svc);
    await cutOff(false);
    try {
      const native = await eventually(() => svc.call('GET', `/companies/${company.id}/invoices`), (r) => r.status !== 200, { withinMs: 10_000, everyMs: 100, what: 'a read that fails' });
      expect(native.status).to.equal(503);
      expect(native.headers.get('retry-after')).to.equal('5');
      expect(native.body.detail.error).to.equal('service_unavailable');
      const write = await svc.call('POST', `/companies/${company.id}/customers`, { name: 'Počas výpadku s.r.o.', vat_id: 'SK2020000004' });
      expect(write.status).to.equal(503);
      expect(write.body.detail.error).to.equal('service_unavailable');

      const status = await sapi.call('GET', '/document/status/svc_sapi_doc_00000000000000000000000000');
      expect(status.status).to.equal(503);
      expect(status.headers.get('retry-after')).to.equal('5');
      const error = sapiError(status);
      expect(error).to.include({ code: 'SAPI-UNAVAILABLE', category: 'TEMPORARY', retryable: true });
    } finally {
      await cutOff(true);
    }
    const back = await eventually(() => svc.call('POST', `/companies/${company.id}/customers`, { name: 'Po výpadku s.r.o.', vat_id: 'SK2020000004' }), (r) => r.status === 201, { withinMs: 20_000, everyMs: 200, what: 'a command answered after the outage' });
    expect(back.body.name).to.equal('Po výpadku s.r.o.');
  });
});

describe('isDatabaseUnavailable', () => {
  const pgError = (code: string) => Object.assign(new Error('from the server'), { code });
  it('is true for a lost or refused connection, a server shutting down, no slot, and the pool timing out', () => {
    for (const e of [pgError('08006'), pgError('57P01'), pgError('57P03'), pgError('53300'),
      Object.assign(pgError('55000'), { severity: 'FATAL' }), // database "x" is not currently accepting connections
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' }),
      new Error('Connection terminated unexpectedly'), new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('query failed'), { driverError: pgError('08003') })]) {
      expect(isDatabaseUnavailable(e), String(e)).to.equal(true);
    }
  });
  it('is false for the request\'s own faults and for bugs: a constraint, bad data, wrong SQL, a TypeError', () => {
    for (const e of [pgError('23505'), pgError('55000'), pgError('22P02'), pgError('42P01'), pgError('40001'), new TypeError('x is undefined'), 'text', null]) {
      expect(isDatabaseUnavailable(e), String(e)).to.equal(false);
    }
  });
});
