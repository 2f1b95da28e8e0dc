import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EmbeddedWorkerData, EmbeddedWorkerMessage } from './embedded-worker.ts';

export interface EmbeddedPostgres {
  /** a libpq URL that `pg` and TypeORM's postgres driver connect to */
  connectionString: string;
  close(): Promise<void>;
}

// compiled (dist/): the worker is plain JavaScript; from source (tsx), a JS entry registers tsx in the thread first
const WORKER = new URL(import.meta.url.endsWith('.ts') ? './embedded-worker-entry.mjs' : './embedded-worker.js', import.meta.url);
const INITDB = new URL(import.meta.url.endsWith('.ts') ? './embedded-initdb-entry.mjs' : './embedded-initdb.js', import.meta.url);

function workerError(message: Extract<EmbeddedWorkerMessage, { kind: 'failed' }>): Error {
  const error = new Error(message.message);
  if (message.stack) error.stack = message.stack;
  return error;
}

/** The next answer of the thread; an error or an exit first rejects. */
function answer(worker: Worker): Promise<EmbeddedWorkerMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: EmbeddedWorkerMessage) => settle(() => resolve(message));
    const onError = (error: Error) => settle(() => reject(error));
    const onExit = (code: number) => settle(() => reject(new Error(`the embedded database thread exited (code ${code})`)));
    function settle(then: () => void) {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      then();
    }
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/**
 * A new cluster (the first start on a data directory) is made in a process of its own that then
 * exits. PGlite makes it through a second Postgres and an initdb module, copying the cluster (and
 * Postgres's memory, before each of initdb's runs) through memory: ~1.1 GB at its peak on a thread
 * of the service, with V8 optimising Postgres's SQL parser (~600 MB of compiler memory: the flag that
 * spares it on the database's thread cannot reach initdb's), and ~110 MB more resident at rest
 * afterwards than a restart: the freed memory stayed in the C heap's per-thread arenas. A process
 * gives all of it back, and runs with V8's baseline WebAssembly compiler only (--liftoff-only): made
 * once, the cluster's code is not worth optimising, which halved its CPU and its peak (~570 MB).
 * Starting on the made cluster then costs as any restart.
 */
async function initialiseCluster(dataDir: string): Promise<void> {
  const child = spawn(process.execPath, ['--liftoff-only', fileURLToPath(INITDB), dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`the embedded database in ${dataDir} could not be made: ${stderr.trim() || `its process ended (${code ?? signal})`}`);
}

/**
 * Runs PGlite on a thread of its own and serves it on a loopback port, so every part of the code
 * talks to it through `pg` exactly as it would to a real Postgres: one code path. Its own thread,
 * because starting PGlite (compiling its WebAssembly, starting Postgres) is about a second of CPU
 * that the service's start would otherwise wait for on its one thread; and queries then run beside
 * the service's JavaScript. `dataDir` undefined keeps the database in memory (tests), made from `options.image` (newClusterImage) when given. PGlite runs
 * one transaction at a time: a query on a second connection waits until the open transaction on
 * another connection ends. A start that fails (a damaged data directory) rejects.
 */
export async function startEmbeddedPostgres(dataDir?: string, options: { image?: Uint8Array<ArrayBuffer> } = {}): Promise<EmbeddedPostgres> {
  if (dataDir !== undefined && !existsSync(path.join(dataDir, 'PG_VERSION'))) await initialiseCluster(dataDir);
  const worker = new Worker(WORKER, { workerData: { dataDir, image: options.image } satisfies EmbeddedWorkerData });
  let started: EmbeddedWorkerMessage;
  try {
    started = await answer(worker);
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  if (started.kind !== 'ready') {
    await worker.terminate();
    const cause = started.kind === 'failed' ? workerError(started) : undefined;
    throw new Error(`the embedded database${dataDir ? ` in ${dataDir}` : ''} did not start: ${cause?.message ?? started.kind}`, { cause });
  }
  // The database gone while the service runs is fatal, loudly (a supervisor restarts the service),
  // not a service that answers 503 from then on.
  const lost = (code: number) => {
    throw new Error(`the embedded database thread stopped unexpectedly (code ${code})`);
  };
  worker.once('exit', lost);
  let closing: Promise<void> | undefined;
  return {
    connectionString: `postgres://postgres@127.0.0.1:${started.port}/postgres?sslmode=disable`,
    close() {
      closing ??= (async () => {
        worker.off('exit', lost);
        const closed = answer(worker);
        worker.postMessage('close');
        const reply = await closed.finally(() => worker.terminate());
        if (reply.kind === 'failed') throw workerError(reply);
      })();
      return closing;
    },
  };
}
