import pg from 'pg';
import { isUnlimitedRate, type TakeResult } from '../../../commands/limits/token-bucket.ts';
import type { BucketStore } from './bucket-store.ts';

/** Buckets full again are forgotten this often (a missing bucket is a full one: no answer changes). */
const SWEEP_MS = 60_000;

/**
 * commands/limits/token-bucket.ts in SQL, for instances that share a Postgres but no Redis: one
 * statement takes (or looks), so refill and take are one atomic step however many instances share
 * the bucket, and the clock is the server's (clock_timestamp), so instances with skewed clocks
 * agree. Keep it in step with the TypeScript and the Lua (redis-store.ts).
 *
 * The table is UNLOGGED: a bucket is not worth a WAL write, and a Postgres crash that empties it
 * only forgives every caller once (full buckets). A row keeps its rate and burst, so a sweep can
 * forget the buckets that are full again, once a minute. The store has its own small pool,
 * failing fast (connection 1 s, query 500 ms), so a take never queues behind read-model work and
 * a database in trouble lets requests through like a down Redis.
 */
export function createPostgresStore(options: { url: string; poolSize?: number }): BucketStore & { ready(): Promise<void> } {
  const pool = new pg.Pool({
    connectionString: options.url, max: options.poolSize ?? 4, connectionTimeoutMillis: 1_000, query_timeout: 500,
    application_name: 'svc-rate-limits',
  });
  pool.on('error', () => {}); // an idle connection dropped: the next take reconnects
  let created: Promise<void> | null = null;
  const ready = () =>
    (created ??= pool.query(`CREATE UNLOGGED TABLE IF NOT EXISTS rate_limit_buckets (
        key text PRIMARY KEY, tokens double precision NOT NULL, updated_at_ms double precision NOT NULL,
        rate double precision NOT NULL, burst double precision NOT NULL, allowed boolean NOT NULL)`)
      .then(() => undefined)
      .catch((error: unknown) => {
        // two instances creating it at once: one of them meets the other's row in the catalogue
        const code = (error as { code?: string }).code;
        if (code === '23505' || code === '42P07') return;
        created = null;
        throw error;
      }));

  async function take(key: string, rpm: number, burst: number): Promise<TakeResult> {
    if (isUnlimitedRate(rpm, burst)) return { allowed: true, retryAfterSeconds: 0 };
    await ready();
    // $2 rate per ms, $3 burst; r: the stored bucket refilled up to now (a new bucket is full)
    const r = 'least($3::float8, b.tokens + greatest(0, excluded.updated_at_ms - b.updated_at_ms) * $2::float8)';
    const { rows } = await pool.query<{ allowed: boolean; tokens: number }>(
      `INSERT INTO rate_limit_buckets AS b (key, tokens, updated_at_ms, rate, burst, allowed)
       SELECT $1, CASE WHEN $3::float8 >= 1 THEN $3::float8 - 1 ELSE $3::float8 END, extract(epoch FROM clock_timestamp()) * 1000, $2::float8, $3::float8, $3::float8 >= 1
       ON CONFLICT (key) DO UPDATE SET
         tokens = CASE WHEN ${r} >= 1 THEN ${r} - 1 ELSE ${r} END,
         allowed = ${r} >= 1,
         updated_at_ms = greatest(excluded.updated_at_ms, b.updated_at_ms), rate = excluded.rate, burst = excluded.burst
       RETURNING allowed, tokens`,
      [key, rpm / 60_000, burst],
    );
    const row = rows[0];
    return !row || row.allowed ? { allowed: true, retryAfterSeconds: 0 } : refused(row.tokens, rpm);
  }

  // forgets buckets that are full again (a missing bucket is a full one), and ones that never refill after an hour
  const sweep = setInterval(() => {
    void pool.query(
      `DELETE FROM rate_limit_buckets
       WHERE (rate > 0 AND tokens + (extract(epoch FROM clock_timestamp()) * 1000 - updated_at_ms) * rate >= burst)
          OR (rate <= 0 AND updated_at_ms < extract(epoch FROM clock_timestamp()) * 1000 - 3600000)`,
    ).catch(() => {});
  }, SWEEP_MS);
  sweep.unref();

  return {
    take,
    async peek(key, rpm, burst) {
      if (isUnlimitedRate(rpm, burst)) return { allowed: true, retryAfterSeconds: 0 };
      await ready();
      const { rows } = await pool.query<{ tokens: number }>(
        `SELECT least($2::float8, tokens + greatest(0, extract(epoch FROM clock_timestamp()) * 1000 - updated_at_ms) * $3::float8) AS tokens
         FROM rate_limit_buckets WHERE key = $1`,
        [key, burst, rpm / 60_000],
      );
      const tokens = rows[0]?.tokens ?? burst;
      return tokens >= 1 ? { allowed: true, retryAfterSeconds: 0 } : refused(tokens, rpm);
    },
    ready,
    async close() {
      clearInterval(sweep);
      await pool.end().catch(() => {});
    },
  };
}

function refused(tokens: number, rpm: number): TakeResult {
  const seconds = rpm > 0 ? (1 - tokens) / (rpm / 60_000) / 1000 : 60;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(seconds)) };
}
