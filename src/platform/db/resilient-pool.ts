import pg from 'pg';
import type { Logger } from 'pino';

/**
 * Makes a pg pool outlive its server: Postgres restarting (or a terminated backend) ends every
 * connection, and each dying connection emits 'error'. pg-pool listens on idle clients only, and
 * not at all on the pool itself, so an unheard 'error' (an idle connection's, through the pool; or
 * a checked-out one's between two queries, on the client) was an uncaught exception that ended the
 * service. Here both are heard: a query on a dead connection still fails (and the client is
 * discarded on release), the pool connects anew for the next one. Every client is marked when it
 * is first checked out, so clients made before this call are covered too (TypeORM's pool).
 */
function hearConnectionErrors(pool: pg.Pool, onLost: (error: Error) => void): void {
  const heard = new WeakSet<pg.PoolClient>();
  if (pool.listenerCount('error') === 0) pool.on('error', onLost);
  pool.on('acquire', (client) => {
    if (heard.has(client)) return;
    heard.add(client);
    client.on('error', onLost);
  });
}

/** One warning per outage, not one per connection. */
function lostConnectionWarning(log: Pick<Logger, 'warn'>, what: string): (error: Error) => void {
  let lastWarnAt = -Infinity;
  return (error) => {
    if (Date.now() - lastWarnAt < 5_000) return;
    lastWarnAt = Date.now();
    log.warn({ err: error }, `${what} connection lost; the pool reconnects on next use`);
  };
}

/** A pg pool with hearConnectionErrors. */
export function resilientPool(config: pg.PoolConfig, log: Pick<Logger, 'warn'>): pg.Pool {
  const pool = new pg.Pool(config);
  hearConnectionErrors(pool, lostConnectionWarning(log, 'event-store database'));
  return pool;
}
