import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let collect: Collect | undefined;

/**
 * V8's fullest collection on the calling thread, the one it runs under memory pressure: it collects
 * until nothing more is freed, compacts, and gives the young generation's pages back (the main
 * thread's grew to ~60 MB during the start and stayed so, ~10 MB of it used). Node exposes it only as
 * `gc`, which --expose-gc puts into contexts made after it is set.
 */
export function releaseHeap(): void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    // the collection would also drop WebAssembly's baseline code, and a function compiled again
    // afterwards is no longer kept there: PGlite's SQL parser would be optimised after all (~600 MB
    // of compiler memory for seconds; see src/platform/db/embedded-server.ts)
    v8.setFlagsFromString('--no-flush-liftoff-code');
    collect = vm.runInNewContext('gc') as Collect;
  }
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

export interface IdleOptions {
  /** how often the event loop's use is looked at */
  everyMs?: number;
  /** below this share of the time busy, an interval is quiet */
  quietBelow?: number;
  /** after this many quiet intervals in a row */
  quietIntervals?: number;
}

/**
 * Calls `release` once the calling thread's event loop has been quiet for a while (by default 6 s
 * under 25 % busy) after having been busy (the start counts): once per quiet spell, so a thread at
 * rest does not collect again and again, and a thread under load never. Quiet is not idle: at rest
 * the followers' polls keep the database's thread 7-15 % busy and the main thread 4-6 %. Its timer
 * does not keep the process alive. Returns a stop function.
 */
export function releaseWhenIdle(release: () => void, options: IdleOptions = {}): () => void {
  const { everyMs = 2000, quietBelow = 0.25, quietIntervals = 3 } = options;
  let last = performance.eventLoopUtilization();
  let quiet = 0;
  let busySinceRelease = true;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const used = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (used >= quietBelow) {
      quiet = 0;
      busySinceRelease = true;
      return;
    }
    if (++quiet < quietIntervals || !busySinceRelease) return;
    busySinceRelease = false;
    release();
    // the collection itself is not activity
    last = performance.eventLoopUtilization();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
