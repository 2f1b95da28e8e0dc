// The embedded database's thread: PGlite and its socket server, started from src/platform/db/embedded.ts.
import { inspect } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import { initialisePglite, servePglite } from './embedded-server.ts';

/**
 * What the thread is given: PGlite's directory, undefined for an in-memory database; `initialise`:
 * only make a new cluster there, answer 'initialised' and end.
 */
export interface EmbeddedWorkerData {
  dataDir: string | undefined;
  initialise?: boolean;
}
/** What it answers: once started (or not), and once closed after a 'close' message. */
export type EmbeddedWorkerMessage =
  | { kind: 'ready'; port: number }
  | { kind: 'initialised' }
  | { kind: 'closed' }
  | { kind: 'failed'; message: string; stack: string | undefined };

const port = parentPort;
if (!port) throw new Error('embedded-worker.ts runs as a worker thread (see src/platform/db/embedded.ts)');
const post = (message: EmbeddedWorkerMessage) => port.postMessage(message);
// PGlite's file system throws plain objects too (Emscripten's ErrnoError): shown, not "[object Object]"
const failed = (error: unknown): EmbeddedWorkerMessage =>
  error instanceof Error ? { kind: 'failed', message: error.message, stack: error.stack } : { kind: 'failed', message: inspect(error, { depth: 2 }), stack: undefined };

// Listening from the start also keeps this thread's event loop alive while PGlite starts: with an
// empty loop, Node waits for all of V8's background work (PGlite's optimising compiles, 0.3-0.5 s)
// before it goes on.
const closing = new Promise<void>((resolve) => port.once('message', () => resolve()));
const data = workerData as EmbeddedWorkerData;
try {
  if (data.initialise && data.dataDir !== undefined) {
    // the caller ends this thread once it has the answer
    await initialisePglite(data.dataDir);
    post({ kind: 'initialised' });
  } else {
    const served = await servePglite(data.dataDir);
    post({ kind: 'ready', port: served.port });
    await closing;
    await served.close();
    post({ kind: 'closed' });
  }
} catch (error) {
  post(failed(error));
}
