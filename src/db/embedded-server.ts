import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ExtendedQueryQueue } from './pglite-queue.ts';

export interface ServedPglite {
  /** the loopback port the socket server listens on */
  port: number;
  close(): Promise<void>;
}

/**
 * PGlite served on a loopback port, in the calling thread (the embedded-database worker's).
 * `dataDir` undefined keeps the database in memory.
 */
export async function servePglite(dataDir: string | undefined): Promise<ServedPglite> {
  // pg_trgm: read models search substrings (invoice numbers, names) through trigram indexes
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  // Replace the library's queue (a private field, exact version pinned) with one that keeps each
  // connection's extended-query messages together; see pglite-queue.ts.
  (server as unknown as { queryQueue: ExtendedQueryQueue }).queryQueue = new ExtendedQueryQueue(db);
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    port: Number(server.getServerConn().split(':').pop()),
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
