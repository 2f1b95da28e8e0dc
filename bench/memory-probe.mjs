// Preloaded into the service by `npm run bench -- memory` (NODE_OPTIONS=--import): every 250 ms it
// writes to MEMORY_PROBE_FILE each thread's V8 heap and the memory V8 holds outside it (ArrayBuffers,
// WebAssembly memories), now and at its highest, for the main thread and every worker thread.
// Worker threads are found by wrapping worker_threads.Worker before the service loads (piscina's
// idle threads block in Atomics.wait, so they cannot report themselves; the main thread asks them).
// Measurement only: the service does not know.
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { setInterval, setTimeout } from 'node:timers';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import workerThreads from 'node:worker_threads';

const file = process.env.MEMORY_PROBE_FILE;

if (workerThreads.isMainThread && file) {
  /** @type {Map<import('node:worker_threads').Worker, string>} */
  const workers = new Map();
  const Base = workerThreads.Worker;
  /** The thread's script; piscina's threads are named by the task file their pool sends them first. */
  class ProbedWorker extends Base {
    /** @param {string | URL} filename @param {import('node:worker_threads').WorkerOptions} [options] */
    constructor(filename, options) {
      super(filename, options);
      const name = path.basename(String(filename));
      workers.set(this, name === 'embedded-worker.js' || name === 'embedded-worker-entry.mjs' ? 'embedded database (PGlite)' : name);
      const post = this.postMessage.bind(this);
      this.postMessage = (/** @type {unknown} */ message, /** @type {readonly import('node:worker_threads').Transferable[] | undefined} */ transfer) => {
        const task = /** @type {{ filename?: unknown } | null} */ (message);
        if (task && typeof task === 'object' && typeof task.filename === 'string' && name === 'worker.js') {
          const parts = task.filename.replace(/^file:\/\//, '').split('/');
          workers.set(this, `${parts.at(-2)}/${parts.at(-1)}`);
        }
        post(message, transfer);
      };
      this.once('exit', () => workers.delete(this));
    }
  }
  workerThreads.Worker = ProbedWorker;
  syncBuiltinESMExports();

  /** @type {Map<string, { label: string; heapMb: number; externalMb: number; peakHeapMb: number; peakExternalMb: number; at: number; spaces?: string }>} */
  const threads = new Map();
  const record = (/** @type {string} */ key, /** @type {string} */ label, /** @type {{ total_physical_size: number; external_memory?: number }} */ heap) => {
    const before = threads.get(key);
    const heapMb = heap.total_physical_size / 1048576;
    const externalMb = (heap.external_memory ?? 0) / 1048576;
    threads.set(key, { label, heapMb, externalMb, at: Date.now(), peakHeapMb: Math.max(heapMb, before?.peakHeapMb ?? 0), peakExternalMb: Math.max(externalMb, before?.peakExternalMb ?? 0) });
  };
  let sampling = false;
  setInterval(async () => {
    if (sampling) return;
    sampling = true;
    try {
      record('main', 'main thread', v8.getHeapStatistics());
      const main = threads.get('main');
      // where the main thread's heap is: young objects (new space) or old, and how much of it is live
      if (main) main.spaces = v8.getHeapSpaceStatistics().filter((space) => space.physical_space_size > 1048576).map((space) => `${space.space_name.replace('_space', '')} ${Math.round(space.physical_space_size / 1048576)} MB (${Math.round(space.space_used_size / 1048576)} used)`).join(', ');
      await Promise.all(
        [...workers].map(async ([worker, label]) => {
          const heap = await Promise.race([worker.getHeapStatistics(), new Promise((resolve) => setTimeout(resolve, 1000, null))]).catch(() => null);
          if (heap) record(String(worker.threadId), label, heap);
        }),
      );
      writeFileSync(file, JSON.stringify([...threads.values()]));
    } finally {
      sampling = false;
    }
  }, 250).unref();
}
