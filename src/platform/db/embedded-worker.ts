// The embedded database's thread: PGlite and its socket server, started from src/platform/db/embedded.ts.
import { inspect } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import { releaseHeap, releaseWhenIdle } from '../idle-memory.ts';
import { servePglite } from './embedded-server.ts';

/** What the thread is given: PGlite's directory, undefined for an in-memory database (a new cluster is made beforehand: embedded-initdb.ts). */
export interface EmbeddedWorkerData {
  dataDir: string | undefined;
  /** an in-memory database's new cluster, made beforehand (newClusterImage) */
  image?: Uint8Array<ArrayBuffer>;
}
/** What it answers: once started (or not), and once closed after a 'close' message. */
export type EmbeddedWorkerMessage =
  | { kind: 'ready'; port: number }
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
  const served = await servePglite(data.dataDir, data.image);
  post({ kind: 'ready', port: served.port });
  // PGlite's start and the queries of a busy spell leave this thread's young generation large
  const stopReleasing = releaseWhenIdle(releaseHeap);
  await closing;
  stopReleasing();
  await served.close();
  post({ kind: 'closed' });
} catch (error) {
  post(failed(error));
}
