import type { TakeResult } from '../../../commands/limits/token-bucket.ts';

export type { TakeResult };

/**
 * Where token buckets live: in process (one instance, tests) or in Redis (shared by all
 * instances). Both follow commands/limits/token-bucket.ts. A negative rpm or burst (the spec's -1)
 * is always allowed without touching the store. Methods reject when the store is unreachable;
 * the rate limiter then lets the request through.
 */
export interface BucketStore {
  /** takes one token from the bucket `key`, sized rpm/burst */
  take(key: string, rpm: number, burst: number): Promise<TakeResult>;
  /** whether a take would be allowed now, without taking (the invalid-credential guard asks first) */
  peek(key: string, rpm: number, burst: number): Promise<TakeResult>;
  close(): Promise<void>;
}
