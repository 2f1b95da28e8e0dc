import { expect } from 'chai';
import pg from 'pg';
import { freshDatabase } from './database.ts';

describe('test database provisioning', () => {
  it('gives a database that answers over pg, concurrently from two connections', async () => {
    const db = await freshDatabase();
    const pool = new pg.Pool({ connectionString: db.connectionString, max: 2 });
    try {
      const [a, b] = await Promise.all([pool.query('SELECT 1 AS one'), pool.query('SELECT pg_current_xact_id()::text AS xid')]);
      expect(a.rows[0].one).to.equal(1);
      expect(b.rows[0].xid).to.match(/^\d+$/);
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
