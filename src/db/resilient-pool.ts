import pg from 'pg';
import type { Logger } from 'pino';

/**
 * A pg pool that outlives its server: Postgres restarting (or a terminated backend) ends every
 * connection, and each dying connection emits 'error'. pg-pool listens on idle clients only, and
 * not at all on the pool itself, so an unheard 'error' (an idle connection's, through the pool; or
 * a checked-out one's between two queries, on the client) was an uncaught exception that ended the
 * service. Here both are heard: a query on a dead connection still fails (and the client is
 * discarded on release), the pool connects anew for the next one.
 */
export function resilientPool(config: pg.PoolConfig, log: Pick<Logger, 'warn'>): pg.Pool {
  const pool = new pg.Pool(config);
  let lastWarnAt = -Infinity;
  const lost = (error: Error) => {
    // one line per outage, not one per connection
    if (Date.now() - lastWarnAt < 5_000) return;
    lastWarnAt = Date.now();
    log.warn({ err: error }, 'database connection lost; the pool reconnects on next use');
  };
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}
