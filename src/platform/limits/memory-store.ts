import { fullAtMs, isUnlimitedRate, peek, take, type Bucket } from '../../../commands/limits/token-bucket.ts';
import type { BucketStore } from './bucket-store.ts';

interface MemoryStoreOptions {
  /** most buckets kept; beyond it the least recently used is dropped (default 100 000: some 20 MB at most) */
  maxKeys?: number;
  /** milliseconds clock, for tests */
  now?: () => number;
}

type Entry = { bucket: Bucket; fullAt: number };

// entries looked at per take for having refilled: more than one, so the map shrinks when traffic calms
const SWEEP_PER_TAKE = 2;

/**
 * Buckets in this process: right for one instance and for tests; several instances each count on
 * their own. Memory stays bounded without a timer: a full bucket answers like a missing one, so the
 * least recently used entries are dropped once full again, and any beyond `maxKeys` regardless
 * (dropping a non-full bucket only forgives that caller a little).
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): BucketStore & { readonly size: number } {
  const maxKeys = options.maxKeys ?? 100_000;
  const now = options.now ?? Date.now;
  // a Map iterates in insertion order; re-inserting on use makes its head the least recently used
  const buckets = new Map<string, Entry>();

  function sweep(nowMs: number): void {
    while (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value as string);
    // The head was used longest ago, so it is about the first to be full again (every plan's bucket
    // refills within minutes); stopping at the first that is not keeps a take O(1).
    let looked = 0;
    for (const [key, entry] of buckets) {
      if (looked++ >= SWEEP_PER_TAKE || entry.fullAt > nowMs) break;
      buckets.delete(key);
    }
  }

  return {
    get size() {
      return buckets.size;
    },
    async take(key, rpm, burst) {
      if (isUnlimitedRate(rpm, burst)) return { allowed: true, retryAfterSeconds: 0 };
      const nowMs = now();
      const result = take(buckets.get(key)?.bucket, nowMs, rpm, burst);
      buckets.delete(key);
      if (result.bucket) buckets.set(key, { bucket: result.bucket, fullAt: fullAtMs(result.bucket, rpm, burst) });
      sweep(nowMs);
      return { allowed: result.allowed, retryAfterSeconds: result.retryAfterSeconds };
    },
    async peek(key, rpm, burst) {
      return peek(buckets.get(key)?.bucket, now(), rpm, burst);
    },
    async close() {
      buckets.clear();
    },
  };
}
