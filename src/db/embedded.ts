import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ExtendedQueryQueue } from './pglite-queue.ts';

export interface EmbeddedPostgres {
  /** a libpq URL that `pg` and TypeORM's postgres driver connect to */
  connectionString: string;
  close(): Promise<void>;
}

/**
 * Runs PGlite in this process and serves it on a loopback port, so every part of the code talks
 * to it through `pg` exactly as it would to a real Postgres: one code path. `dataDir` undefined
 * keeps the database in memory (tests). PGlite runs one transaction at a time: a query on a second
 * connection waits until the open transaction on another connection ends.
 */
export async function startEmbeddedPostgres(dataDir?: string): Promise<EmbeddedPostgres> {
  // pg_trgm: read models search substrings (invoice numbers, names) through trigram indexes
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  // Replace the library's queue (a private field, exact version pinned) with one that keeps each
  // connection's extended-query messages together; see pglite-queue.ts.
  (server as unknown as { queryQueue: ExtendedQueryQueue }).queryQueue = new ExtendedQueryQueue(db);
  await server.start();
  const address = server.getServerConn();
  const port = Number(address.split(':').pop());
  return {
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
