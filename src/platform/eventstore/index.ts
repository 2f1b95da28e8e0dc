import type pg from 'pg';
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
  // the EventStoreDB client (gRPC) is loaded only when configured: it costs a Postgres start ~0.3 s of CPU
  if (opts.eventstoreUrl) return (await import('./esdb/index.ts')).createEsdbEventStore(opts.eventstoreUrl);
  return createPostgresEventStore(opts.pool);
}
