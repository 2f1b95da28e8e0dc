import type pg from 'pg';
import { isPglite } from '../../db/is-pglite.ts';
import type { EventStore } from '../port.ts';
import { upcastOnRead, type EventContracts } from '../upcasting.ts';
import { migrateEventStore } from './schema.ts';
import { PostgresEventStore, type PostgresEventStoreOptions } from './store.ts';

export { migrateEventStore } from './schema.ts';
export { PostgresEventStore, type PostgresEventStoreOptions } from './store.ts';
export { appendStatement } from './append.ts';
export { rewriteStoredEvents } from './rewrite.ts';
export { encodePosition, decodePosition, type PgPosition } from './position.ts';

/**
 * Migrates (idempotently) and returns the store; the pool stays the caller's unless
 * options.ownsPool. Prepared statements are used unless the server is PGlite (see the option).
 * Its reads give every event at its type's current payload version (upcasting.ts); `contracts`
 * names the versions and upcasters, by default those of `events/`.
 */
export async function createPostgresEventStore(
  pool: pg.Pool,
  options: PostgresEventStoreOptions & { contracts?: EventContracts } = {},
): Promise<EventStore> {
  await migrateEventStore(pool);
  const { contracts, ...storeOptions } = options;
  const preparedStatements = storeOptions.preparedStatements ?? !(await isPglite(pool));
  return upcastOnRead(new PostgresEventStore(pool, { ...storeOptions, preparedStatements }), contracts);
}
