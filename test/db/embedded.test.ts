import { expect } from 'chai';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';

describe('embedded Postgres (PGlite over a socket)', () => {
  it('keeps each connection’s parameterised queries whole when many run at once', async () => {
    const embedded = await startEmbeddedPostgres();
    const pool = new pg.Pool({ connectionString: embedded.connectionString, max: 8 });
    try {
      // Different parameter counts per connection: interleaved Parse/Bind of two connections fail loudly.
      const queries = Array.from({ length: 200 }, (_, i) =>
        i % 2 === 0
          ? pool.query('SELECT $1::int + $2::int AS v', [i, 1]).then((r) => r.rows[0].v === i + 1)
          : pool.query('SELECT $1::int + $2::int + $3::int + $4::int AS v', [i, 1, 1, 1]).then((r) => r.rows[0].v === i + 3),
      );
      expect((await Promise.all(queries)).every(Boolean)).to.equal(true);
    } finally {
      await pool.end();
      await embedded.close();
    }
  });

  it('lets a second connection wait for an open transaction instead of failing', async () => {
    const embedded = await startEmbeddedPostgres();
    const a = new pg.Client({ connectionString: embedded.connectionString });
    const b = new pg.Client({ connectionString: embedded.connectionString });
    await Promise.all([a.connect(), b.connect()]);
    try {
      await a.query('CREATE TABLE t (n int)');
      await a.query('BEGIN');
      await a.query('INSERT INTO t VALUES (1)');
      const waiting = b.query('SELECT count(*)::int AS n FROM t');
      await a.query('COMMIT');
      expect((await waiting).rows[0].n).to.equal(1);
    } finally {
      await Promise.all([a.end(), b.end()]);
      await embedded.close();
    }
  });
});
