import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openEmbeddedDataDir } from '../../src/platform/db/embedded-default.ts';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded.ts';

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

  describe('on its own thread, in a data directory', function () {
    this.timeout(120_000);
    let dir: string;
    beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'embedded-'))));
    afterEach(async () => rm(dir, { recursive: true, force: true }));

    it('serves two connections, closes, and the directory opens again with the data', async () => {
      const embedded = await startEmbeddedPostgres(dir);
      const a = new pg.Client({ connectionString: embedded.connectionString });
      const b = new pg.Client({ connectionString: embedded.connectionString });
      await Promise.all([a.connect(), b.connect()]);
      await a.query('CREATE TABLE kept (n int)');
      await a.query('INSERT INTO kept VALUES ($1)', [7]);
      expect((await b.query('SELECT n FROM kept')).rows).to.deep.equal([{ n: 7 }]);
      await Promise.all([a.end(), b.end()]);
      await embedded.close();
      await embedded.close(); // twice is once

      const refused = new pg.Client({ connectionString: embedded.connectionString });
      refused.on('error', () => {});
      expect(await refused.connect().then(() => 'connected', (error: NodeJS.ErrnoException) => error.code)).to.equal('ECONNREFUSED');

      const again = await startEmbeddedPostgres(dir);
      const c = new pg.Client({ connectionString: again.connectionString });
      await c.connect();
      try {
        expect((await c.query('SELECT n FROM kept')).rows).to.deep.equal([{ n: 7 }]);
      } finally {
        await c.end();
        await again.close();
      }
    });

    it('rejects a start that fails (a damaged data directory) instead of hanging', async () => {
      // PG_VERSION present: PGlite takes the directory for a database and does not run initdb
      await writeFile(path.join(dir, 'PG_VERSION'), '17\n');
      const started = await startEmbeddedPostgres(dir).then(
        async (embedded) => {
          await embedded.close();
          return null;
        },
        (error: Error) => error,
      );
      expect(started?.message).to.match(/^the embedded database in .+ did not start: /);
    });

    it('rejects a start whose new cluster cannot be made, with the reason its process gave', async () => {
      // a file where the cluster's directory should be: the cluster-making process fails
      const notADirectory = path.join(dir, 'not-a-directory');
      await writeFile(notADirectory, '');
      const started = await startEmbeddedPostgres(notADirectory).then(
        async (embedded) => {
          await embedded.close();
          return null;
        },
        (error: Error) => error,
      );
      expect(started?.message).to.match(/^the embedded database in .+ could not be made: \S/);
    });

    it('releases the data directory’s lock when the database does not start', async () => {
      await mkdir(path.join(dir, 'pgdata'));
      await writeFile(path.join(dir, 'pgdata', 'PG_VERSION'), '17\n');
      const failed = await openEmbeddedDataDir(dir).then(() => false, () => true);
      expect(failed).to.equal(true);
      expect(existsSync(path.join(dir, 'service.pid'))).to.equal(false);
    });
  });
});
