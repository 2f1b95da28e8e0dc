import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ExtendedQueryQueue } from './pglite-queue.ts';
import { exportedFunctionIndex } from './wasm-exports.ts';
import { withWasmOptimisingPutOff, withWasmTierUpOnlyFor } from './wasm-tiering.ts';

interface ServedPglite {
  /** the loopback port the socket server listens on */
  port: number;
  close(): Promise<void>;
}

// Protocol messages that reach code without reaching the parser: a Sync (the message loop,
// ReadyForQuery) and a simple Query whose text is not UTF-8 (refused before it is parsed: the
// client-to-server conversion, the error's path). Postgres answers the second with an error.
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);
const QUERY_NOT_UTF8 = new Uint8Array([0x51, 0, 0, 0, 7, 0xff, 0xfe, 0]);

/** PGlite's WebAssembly, beside its entry point (dist/) */
export const PGLITE_WASM = new URL('pglite.wasm', pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')));

/**
 * PGlite whose SQL parser stays on V8's baseline code. Postgres's parser (raw_parser: bison's
 * tables and actions in one WebAssembly function of ~100 KB) is among the first functions V8
 * optimises, and optimising it took ~600 MB of compiler memory for ~1.5 s: the peak of every start
 * (~850 MB instead of ~450 MB). V8 compiles a function at its first call; the parser's is the first
 * statement, the one `_initArrayTypes` runs at the end of PGlite's start (pinned version). Before it,
 * an empty statement runs with optimising off for what it reaches first (the parser and a few small
 * functions), once the two messages above have reached the rest of a statement's path. The scanner
 * (core_yylex, reached first from the parser) is spared: it is hot. Where PGlite makes the cluster
 * itself (in memory, the initialising thread) its inner initdb instance parses first, in the same
 * compiled module, and this changes nothing.
 */
class PgliteParsingOnBaseline extends PGlite {
  #parserCompiled = false;

  override async _initArrayTypes(options?: { force?: boolean }): Promise<void> {
    if (!this.#parserCompiled) {
      this.#parserCompiled = true;
      await this.execProtocolRaw(SYNC);
      await this.execProtocolRaw(QUERY_NOT_UTF8);
      const scanner = exportedFunctionIndex(PGLITE_WASM, 'core_yylex');
      await withWasmTierUpOnlyFor(scanner, () => this.exec(';'));
    }
    return super._initArrayTypes(options);
  }
}

const SHARED_BUFFERS = 'shared_buffers=16MB';

/**
 * PGlite in the calling thread. `dataDir` undefined keeps the database in memory; `image` (from
 * newClusterImage) is a new cluster it starts from instead of making one.
 */
async function createPglite(dataDir: string | undefined, image?: Uint8Array<ArrayBuffer>): Promise<PGlite> {
  // one options object: the constructor takes a directory first only as a string
  const db = new PgliteParsingOnBaseline({
    dataDir,
    ...(image ? { loadDataDir: new Blob([image]) } : {}),
    // pg_trgm: read models search substrings (invoice numbers, names) through trigram indexes
    extensions: { pg_trgm },
    // Postgres zeroes its shared buffers at every start, in WebAssembly: 128 MB (the default) cost
    // ~0.45 s of a restart, 32 MB ~0.1 s; and what is zeroed stays resident (32 MB: ~50 MB of
    // PGlite's memory at rest, 16 MB: ~32 MB). Pages beyond them are read through the OS's file cache.
    startParams: [...PGlite.defaultStartParams, '-c', SHARED_BUFFERS],
    // and for the Postgres that initdb runs where the cluster is made: its peak ~525 MB instead of ~570 MB
    initDbStartParams: ['-c', SHARED_BUFFERS],
  });
  await db.waitReady;
  return db;
}

/**
 * Makes a new cluster in `dataDir` (initdb) and closes it. PGlite makes it in memory through a second
 * Postgres and an initdb module, then copies it to disk: hundreds of MB at its peak, much of which
 * the C heap keeps afterwards; so this runs in a process of its own (embedded-initdb.ts), on V8's
 * baseline compiler only.
 */
export async function initialisePglite(dataDir: string): Promise<void> {
  const db = await createPglite(dataDir);
  await db.close();
}

/**
 * A new cluster as an image (an uncompressed tar of its files) that an in-memory PGlite starts from
 * instead of running initdb: about a third of the CPU of a start (1.5 s against 4 s). For processes
 * that start many empty databases: the test suites make one image and start each suite's from it.
 */
export async function newClusterImage(): Promise<Uint8Array<ArrayBuffer>> {
  const db = await createPglite(undefined);
  try {
    return new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
  } finally {
    await db.close();
  }
}

/** PGlite served on a loopback port, in the calling thread (the embedded-database worker's); see createPglite. */
export async function servePglite(dataDir: string | undefined, image?: Uint8Array<ArrayBuffer>): Promise<ServedPglite> {
  const db = await withWasmOptimisingPutOff(async () => {
    const started = await createPglite(dataDir, image);
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
