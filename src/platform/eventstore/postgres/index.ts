import type pg from 'pg';
import { isPglite } from '../../db/is-pglite.ts';
import { migrateEventStore } from './schema.ts';
import { PostgresEventStore, type PostgresEventStoreOptions } from './store.ts';

export { migrateEventStore } from './schema.ts';
export { PostgresEventStore, type PostgresEventStoreOptions } from './store.ts';
export { appendStatement } from './append.ts';
export { encodePosition, decodePosition, type PgPosition } from './position.ts';

/**
 * Migrates (idempotently) and returns the store; the pool stays the caller's unless
 * options.ownsPool. Prepared statements are used unless the server is PGlite (see the option).
 */
export async function createPostgresEventStore(pool: pg.Pool, options: PostgresEventStoreOptions = {}): Promise<PostgresEventStore> {
  await migrateEventStore(pool);
  const preparedStatements = options.preparedStatements ?? !(await isPglite(pool));
  return new PostgresEventStore(pool, { ...options, preparedStatements });
}
