import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import { advisoryLeases, LEASE_LOCK_SPACE, SOLE_INSTANCE, type FollowerLeases } from '../../src/platform/followers/lease.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { eventually } from '../support/poll.ts';

const log = pino({ level: 'silent' });

describe('follower leases (several instances on one Postgres)', () => {
  it('on PGlite (one process) every lease is held', async () => {
    expect(SOLE_INSTANCE.held('invoices')).to.equal(true);
    expect(await SOLE_INSTANCE.wait('invoices', 10)).to.equal(true);
  });

  if (!process.env.DATABASE_URL) {
    it('not run on PGlite — one process owns its files; set DATABASE_URL to run the leases on Postgres');
    return;
  }

  let db: TestDatabase;
  const opened: FollowerLeases[] = [];
  const open = (retryMs = 100) => {
    const leases = advisoryLeases({ url: db.connectionString, log, retryMs });
    opened.push(leases);
    return leases;
  };

  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((l) => l.close()));
    await db.drop();
  });

  it('one instance holds a follower; the other waits, and takes over within a round when the holder closes', async () => {
    const a = open();
    expect(await a.wait('invoices', 5_000)).to.equal(true);
    const b = open();
    expect(await b.wait('invoices', 500)).to.equal(false);
    expect(b.held('invoices')).to.equal(false);
    // leases are per follower: b gets one a never asked for
    expect(await b.wait('peppol-delivery', 5_000)).to.equal(true);
    expect(await a.wait('peppol-delivery', 300)).to.equal(false);

    const closed = Date.now();
    await a.close();
    expect(await b.wait('invoices', 5_000)).to.equal(true);
    expect(Date.now() - closed).to.be.below(2_000);
    expect(b.holding().sort()).to.deep.equal(['invoices', 'peppol-delivery']);
  });

  it('a holder whose session dies (as under kill -9) stops at once, and the other takes over', async () => {
    const a = open(10_000); // slow to come back, like a process that is gone
    expect(await a.wait('fs-filing', 5_000)).to.equal(true);
    const b = open();
    void b.wait('fs-filing', 10);
    const admin = new pg.Client({ connectionString: db.connectionString });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, [LEASE_LOCK_SPACE >>> 0]);
      expect(rows).to.have.length(1);
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    } finally {
      await admin.end();
    }
    await eventually(async () => a.held('fs-filing'), (held) => held === false, { withinMs: 5_000 });
    const terminated = Date.now();
    expect(await b.wait('fs-filing', 5_000)).to.equal(true);
    expect(Date.now() - terminated).to.be.below(2_000);
    expect(a.held('fs-filing')).to.equal(false);
  });
});
