import { Redis, type RedisOptions } from 'ioredis';
import { isUnlimitedRate, type TakeResult } from '../../../commands/limits/token-bucket.ts';
import type { BucketStore } from './bucket-store.ts';

/**
 * commands/limits/token-bucket.ts in Lua, so refill and take are one atomic step however many
 * instances share the bucket. The clock is Redis's own (TIME), so instances with skewed clocks
 * agree. A bucket is a hash {tokens, ts}; it expires once it would be full again, which changes no
 * answer (a missing bucket is a full one) and lets idle callers cost nothing.
 * KEYS[1] bucket; ARGV rpm, burst, cost (1 takes a token, 0 only looks).
 */
const TAKE_LUA = `
local rpm = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local rate = rpm / 60000
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(saved[1])
local ts = tonumber(saved[2])
if tokens == nil or ts == nil then
  tokens = burst
  ts = now
end
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate)
if tokens < 1 then
  local wait = 60
  if rate > 0 then wait = math.max(1, math.ceil((1 - tokens) / rate / 1000)) end
  return {0, wait}
end
if cost > 0 then
  tokens = tokens - cost
  redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', math.max(now, ts))
  if rate > 0 then
    redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate) + 1000)
  else
    redis.call('PEXPIRE', KEYS[1], 3600000)
  end
end
return {1, 0}
`;

// ioredis adds a method per defined command; this is its shape
interface WithTake {
  ratelimitTake(key: string, rpm: number, burst: number, cost: number): Promise<[number, number]>;
}

interface RedisStoreOptions {
  /** e.g. 'redis://127.0.0.1:6379' */
  url: string;
  /** prepended to every bucket key, so several apps or test runs can share a Redis */
  keyPrefix?: string;
  /** a Redis that accepts but does not answer fails a take after this long (default 500 ms) */
  commandTimeoutMs?: number;
}

const DEFAULT_KEY_PREFIX = 'ratelimit:';

/**
 * The rate limiter sits in front of every request, so a down or hung Redis must fail a take at
 * once (the limiter then lets the request through) rather than queue it; and the client must come
 * back by itself when Redis does.
 */
function failFastRedisOptions(commandTimeoutMs = 500): RedisOptions {
  return {
    enableOfflineQueue: false, // while disconnected a command fails at once instead of waiting
    maxRetriesPerRequest: 0, // a command caught by a dropped connection fails rather than being resent
    commandTimeout: commandTimeoutMs, // a hung Redis (no reset, no answer) fails too
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000), // reconnect for ever, at most 2 s apart
  };
}

/** Buckets shared by all instances through Redis. `ready()` waits for the first connection (boot, tests). */
export function createRedisStore(options: RedisStoreOptions): BucketStore & { ready(timeoutMs?: number): Promise<void> } {
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const redis = new Redis(options.url, failFastRedisOptions(options.commandTimeoutMs));
  // failures reach the limiter through rejected takes, which it logs (throttled); without a
  // listener ioredis would print every reconnect attempt
  redis.on('error', () => {});
  // defineCommand runs EVALSHA and falls back to EVAL after NOSCRIPT (a restarted Redis has no scripts)
  redis.defineCommand('ratelimitTake', { numberOfKeys: 1, lua: TAKE_LUA });
  const script = redis as unknown as WithTake;

  async function run(key: string, rpm: number, burst: number, cost: number): Promise<TakeResult> {
    if (isUnlimitedRate(rpm, burst)) return { allowed: true, retryAfterSeconds: 0 };
    const [allowed, retryAfterSeconds] = await script.ratelimitTake(prefix + key, rpm, burst, cost);
    return { allowed: allowed === 1, retryAfterSeconds };
  }

  return {
    take: (key, rpm, burst) => run(key, rpm, burst, 1),
    peek: (key, rpm, burst) => run(key, rpm, burst, 0),
    ready(timeoutMs = 5000) {
      if (redis.status === 'ready') return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          redis.off('ready', onReady);
          reject(new Error(`Redis at ${options.url} not ready within ${timeoutMs} ms`));
        }, timeoutMs);
        const onReady = () => {
          clearTimeout(timer);
          resolve();
        };
        redis.once('ready', onReady);
      });
    },
    async close() {
      // quit waits for Redis to answer; a down Redis would never do so
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
