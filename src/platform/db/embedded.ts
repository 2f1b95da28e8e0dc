import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EmbeddedWorkerData, EmbeddedWorkerMessage } from './embedded-worker.ts';

export interface EmbeddedPostgres {
  /** a libpq URL that `pg` and TypeORM's postgres driver connect to */
  connectionString: string;
  close(): Promise<void>;
}

// compiled (dist/): the worker is plain JavaScript; from source (tsx), a JS entry registers tsx in the thread first
const WORKER = new URL(import.meta.url.endsWith('.ts') ? './embedded-worker-entry.mjs' : './embedded-worker.js', import.meta.url);

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
 * A new cluster (the first start on a data directory) is made on a thread that ends afterwards: what
 * making it held (a second Postgres, the initdb module, the cluster copied through memory; ~250 MB
 * after it, ~700 MB at its peak) goes with the thread instead of staying with the database's for
 * as long as the service runs. Starting on the made cluster then costs as any restart (~0.3 s).
 */
async function initialiseCluster(dataDir: string): Promise<void> {
  const worker = new Worker(WORKER, { workerData: { dataDir, initialise: true } satisfies EmbeddedWorkerData });
  try {
    const done = await answer(worker);
    if (done.kind === 'failed') throw new Error(`the embedded database in ${dataDir} could not be made: ${done.message}`, { cause: workerError(done) });
  } finally {
    await worker.terminate();
  }
}

/**
 * Runs PGlite on a thread of its own and serves it on a loopback port, so every part of the code
 * talks to it through `pg` exactly as it would to a real Postgres: one code path. Its own thread,
 * because starting PGlite (compiling its WebAssembly, starting Postgres) is about a second of CPU
 * that the service's start would otherwise wait for on its one thread; and queries then run beside
 * the service's JavaScript. `dataDir` undefined keeps the database in memory (tests). PGlite runs
 * one transaction at a time: a query on a second connection waits until the open transaction on
 * another connection ends. A start that fails (a damaged data directory) rejects.
 */
export async function startEmbeddedPostgres(dataDir?: string): Promise<EmbeddedPostgres> {
  if (dataDir !== undefined && !existsSync(path.join(dataDir, 'PG_VERSION'))) await initialiseCluster(dataDir);
  const worker = new Worker(WORKER, { workerData: { dataDir } satisfies EmbeddedWorkerData });
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
