import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ExtendedQueryQueue } from './pglite-queue.ts';
import { withWasmOptimisingPutOff } from './wasm-tiering.ts';

interface ServedPglite {
  /** the loopback port the socket server listens on */
  port: number;
  close(): Promise<void>;
}

/**
 * PGlite served on a loopback port, in the calling thread (the embedded-database worker's).
 * `dataDir` undefined keeps the database in memory.
 */
function createPglite(dataDir: string | undefined): Promise<PGlite> {
  return PGlite.create(dataDir, {
    // pg_trgm: read models search substrings (invoice numbers, names) through trigram indexes
    extensions: { pg_trgm },
    // Postgres zeroes its shared buffers at every start, in WebAssembly: 128 MB (the default) cost
    // ~0.45 s of a restart, 32 MB ~0.1 s. Pages beyond them are read through the OS's file cache.
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
  });
}

/**
 * Makes a new cluster in `dataDir` (initdb) and closes it. PGlite makes it in memory through a second
 * Postgres and an initdb module, then copies it to disk: ~700 MB at its peak, and ~250 MB of it stays
 * held by the thread afterwards. The caller runs this on a thread that then ends, which frees it all.
 */
export async function initialisePglite(dataDir: string): Promise<void> {
  const db = await withWasmOptimisingPutOff(() => createPglite(dataDir));
  await db.close();
}

export async function servePglite(dataDir: string | undefined): Promise<ServedPglite> {
  const db = await withWasmOptimisingPutOff(async () => {
    const started = await createPglite(dataDir);
    // The event store's migration runs a DO block at every start: PL/pgSQL (a WebAssembly module
    // of its own, ~0.2 s) loads here, while the service is still loading its code.
    await started.exec("LOAD 'plpgsql'").catch(async (error: unknown) => {
      await started.close();
      throw error;
    });
    return started;
  });
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
