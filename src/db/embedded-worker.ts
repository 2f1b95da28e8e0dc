// The embedded database's thread: PGlite and its socket server, started from src/db/embedded.ts.
import { inspect } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import { servePglite, type ServedPglite } from './embedded-server.ts';

/** What the thread is given: PGlite's directory, undefined for an in-memory database. */
export interface EmbeddedWorkerData {
  dataDir: string | undefined;
}
/** What it answers: once started (or not), and once closed after a 'close' message. */
export type EmbeddedWorkerMessage =
  | { kind: 'ready'; port: number }
  | { kind: 'closed' }
  | { kind: 'failed'; message: string; stack: string | undefined };

const port = parentPort;
if (!port) throw new Error('embedded-worker.ts runs as a worker thread (see src/db/embedded.ts)');
const post = (message: EmbeddedWorkerMessage) => port.postMessage(message);
// PGlite's file system throws plain objects too (Emscripten's ErrnoError): shown, not "[object Object]"
const failed = (error: unknown): EmbeddedWorkerMessage =>
  error instanceof Error ? { kind: 'failed', message: error.message, stack: error.stack } : { kind: 'failed', message: inspect(error, { depth: 2 }), stack: undefined };

let served: ServedPglite;
try {
  served = await servePglite((workerData as EmbeddedWorkerData).dataDir);
  port.once('message', () => {
    served.close().then(
      () => post({ kind: 'closed' }),
      (error: unknown) => post(failed(error)),
    );
  });
  post({ kind: 'ready', port: served.port });
} catch (error) {
  post(failed(error));
}
