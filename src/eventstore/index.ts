import type pg from 'pg';
import { createEsdbEventStore } from './esdb/index.ts';
import type { EventStore } from './port.ts';
import { createPostgresEventStore } from './postgres/index.ts';

export * from './port.ts';

export interface CreateEventStoreOptions {
  /** the Postgres (or embedded PGlite) pool; stays the caller's to end */
  pool: pg.Pool;
  /** EVENTSTORE_URL: when set, events live in that EventStoreDB instead of Postgres */
  eventstoreUrl?: string;
}

/**
 * The event store the configuration asks for: EventStoreDB when a URL is given, else Postgres on
 * `pool` (migrated first). The composition root passes process.env.EVENTSTORE_URL.
 */
export async function createEventStore(opts: CreateEventStoreOptions): Promise<EventStore> {
  if (opts.eventstoreUrl) return createEsdbEventStore(opts.eventstoreUrl);
  return createPostgresEventStore(opts.pool);
}
