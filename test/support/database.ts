import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';

export interface TestDatabase {
  /** 'pglite' on the embedded default, 'postgres' when DATABASE_URL is set */
  kind: 'pglite' | 'postgres';
  connectionString: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one suite. Without DATABASE_URL: an in-memory PGlite served over a
 * socket. With it: a new database on that server, dropped afterwards, so suites never see each
 * other's rows and the same tests run on both.
 */
export async function freshDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const embedded = await startEmbeddedPostgres();
    return { kind: 'pglite', connectionString: embedded.connectionString, drop: () => embedded.close() };
  }
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    kind: 'postgres',
    connectionString: target.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
