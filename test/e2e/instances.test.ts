import { expect } from 'chai';
import pg from 'pg';
import { LEASE_LOCK_SPACE } from '../../src/platform/followers/lease.ts';
import { eventually } from '../support/poll.ts';
import { call, startInstances, type Instance, type Instances } from './support/instances.ts';

/**
 * Two service instances on one Postgres (issue 21 item 10): every follower runs on exactly one of
 * them, a command answered by one is shown at once by a GET on the other whichever instance
 * projects, and when the instance that runs the followers goes, the other takes them over.
 */
describe('several instances on one Postgres', function () {
  this.timeout(240_000);
  if (!process.env.DATABASE_URL) {
    it('not run on PGlite — one process owns its files; set DATABASE_URL to run several instances on Postgres');
    return;
  }

  let cluster: Instances;
  let a: Instance;
  let b: Instance;
  let key: string;
  let company: string;
  let customer: string;

  /** who holds each follower lease: one backend each, never two */
  async function leaseHolders(): Promise<{ lock: string; pid: number }[]> {
    const admin = new pg.Client({ connectionString: cluster.database.connectionString });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ lock: string; pid: number }>(
        `SELECT objid::text AS lock, pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, [LEASE_LOCK_SPACE >>> 0]);
      return rows;
    } finally {
      await admin.end();
    }
  }

  const invoiceBody = () => ({
    issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer,
    lines: [{ item_name: 'Konzultácia', quantity: '3', unit_code: 'HUR', unit_price: '80.00', vat_rate: '23' }],
  });

  before(async () => {
    cluster = await startInstances({ count: 2 });
    [a, b] = cluster.instances as [Instance, Instance];
    key = cluster.demo.api_key;
    company = cluster.demo.companies[0]!.id;
    const buyer = cluster.demo.companies[1]!;
    const created = await call(b.api, 'POST', `/companies/${company}/customers`, key, {
      name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id, city: 'Košice', postal_code: '04001',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    customer = created.body.id;
  });
  after(async () => {
    await cluster?.close();
  });

  it('runs every projector and reactor on one instance only', async () => {
    const followers = [...a.services.projections.projectors.map((p) => p.name), ...a.services.reactors.reactors.map((r) => r.name)];
    const holders = await eventually(leaseHolders, (rows) => rows.length === followers.length, { what: 'every follower leased' });
    expect(new Set(holders.map((h) => h.lock)).size, 'one holder per lease').to.equal(followers.length);
    const held = [...a.services.followers.holding(), ...b.services.followers.holding()];
    expect(held.sort(), 'each follower held by exactly one instance').to.deep.equal([...followers].sort());
  });

  it('read-your-writes across instances: what one answers, the other shows at once, whichever projects', async () => {
    const violations: string[] = [];
    // every wait must end by reaching the position, never by its time-out (which answers anyway)
    const waits: boolean[] = [];
    const latencies: number[] = [];
    const leader = a.services.followers.holding().length > 0 ? a : b;
    for (const instance of [a, b]) {
      const runner = instance.services.projections;
      const original = runner.caughtUp.bind(runner);
      runner.caughtUp = async (...args) => {
        const reached = await original(...args);
        waits.push(reached);
        return reached;
      };
    }
    for (let i = 0; i < 20; i++) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      const started = Date.now();
      const created = await call(writer.api, 'POST', `/companies/${company}/invoices`, key, invoiceBody());
      if (writer !== leader) latencies.push(Date.now() - started);
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const shown = await call(reader.api, 'GET', `/companies/${company}/invoices/${created.body.id}`, key);
      if (shown.status !== 200 || shown.body.version !== created.body.version) violations.push(`create ${i}: ${shown.status} v${shown.body?.version}`);
      const edited = await call(reader.api, 'PUT', `/companies/${company}/invoices/${created.body.id}`, key, { ...invoiceBody(), note: `edit ${i}` }, { 'if-match': String(created.body.version) });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      const again = await call(writer.api, 'GET', `/companies/${company}/invoices/${created.body.id}`, key);
      if (again.body?.version !== edited.body.version || again.body?.note !== `edit ${i}`) violations.push(`edit ${i}: v${again.body?.version}`);
      const listed = await call(writer.api, 'GET', `/companies/${company}/customers/${customer}`, key);
      if (listed.status !== 200) violations.push(`customer ${i}: ${listed.status}`);
    }
    expect(violations).to.deep.equal([]);
    expect(waits.length).to.be.at.least(40);
    expect(waits.filter((w) => !w), 'waits that ran out instead of reaching the position').to.have.length(0);
    // the runner reads a checkpoint it does not lead every second: the leader's reports come sooner
    const median = [...latencies].sort((x, y) => x - y)[latencies.length >> 1]!;
    expect(median, 'median create answered by the instance that does not project it, ms').to.be.below(1_000);
  });

  it('when the instance running the followers goes, another takes them over within seconds and serves read-your-writes', async () => {
    const leader = a.services.followers.holding().length >= b.services.followers.holding().length ? a : b;
    const survivor = leader === a ? b : a;
    const followers = leader.services.projections.projectors.length + leader.services.reactors.reactors.length;
    const gone = Date.now();
    await leader.close();
    await eventually(async () => survivor.services.followers.holding().length, (n) => n === followers, { what: 'every lease on the survivor' });
    const seconds = (Date.now() - gone) / 1000;
    expect(seconds).to.be.below(5);

    const third = await cluster.add();
    const created = await call(third.api, 'POST', `/companies/${company}/invoices`, key, invoiceBody());
    expect(created.status).to.equal(201);
    const shown = await call(survivor.api, 'GET', `/companies/${company}/invoices/${created.body.id}`, key);
    expect(shown.status).to.equal(200);
    const back = await call(third.api, 'GET', `/companies/${company}/invoices/${created.body.id}`, key);
    expect(back.status).to.equal(200);
    expect(third.services.followers.holding(), 'the newcomer takes nothing the survivor holds').to.deep.equal([]);
  });
});
