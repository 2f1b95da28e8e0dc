import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded.ts';
import { newClusterImage } from '../../src/platform/db/embedded-server.ts';
import { createEventStore, type EventStore } from '../../src/platform/eventstore/index.ts';

export interface TestDatabase {
  /** 'pglite' on the embedded default, 'postgres' when DATABASE_URL is set */
  kind: 'pglite' | 'postgres';
  connectionString: string;
  drop(): Promise<void>;
}

/** One new cluster per test process (initdb once), which every suite's in-memory PGlite starts from. */
let clusterImage: Promise<Uint8Array<ArrayBuffer>> | undefined;

/**
 * A fresh, empty database for one suite. Without DATABASE_URL: an in-memory PGlite served over a
 * socket. With it: a new database on that server, dropped afterwards, so suites never see each
 * other's rows and the same tests run on both.
 */
export async function freshDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    clusterImage ??= newClusterImage();
    const embedded = await startEmbeddedPostgres(undefined, { image: await clusterImage });
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
      // A pool's end() can resolve before its sockets are closed; FORCE would then terminate a
      // backend whose client is still reading, and that client raises an uncaught error. Give
      // closing connections a moment to go; FORCE only what is really left.
      for (let i = 0; i < 40; i++) {
        const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if ((rows[0]?.n ?? 0) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** An event store on a fresh database (freshDatabase) for one suite; `close` ends the store, its pool and the database. */
export async function freshEventStore(): Promise<{ store: EventStore; close(): Promise<void> }> {
  const database = await freshDatabase();
  const pool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
  const store = await createEventStore({ pool });
  return {
    store,
    async close() {
      await store.close();
      await pool.end();
      await database.drop();
    },
  };
}
