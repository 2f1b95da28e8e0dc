import type pg from 'pg';
import type { EventStore } from './port.ts';
import { createPostgresEventStore } from './postgres/index.ts';
import type { EventContracts } from './upcasting.ts';

export * from './port.ts';
export { EVENT_CONTRACTS, payloadVersion, type EventContracts } from './upcasting.ts';

interface CreateEventStoreOptions {
  /** the Postgres (or embedded PGlite) pool; stays the caller's to end */
  pool: pg.Pool;
  /** EVENTSTORE_URL: when set, events live in that EventStoreDB instead of Postgres */
  eventstoreUrl?: string;
  /** the payload versions and upcasters its reads apply; by default those of `events/` */
  contracts?: EventContracts;
}

/**
 * The event store the configuration asks for: EventStoreDB when a URL is given, else Postgres on
 * `pool` (migrated first). The composition root passes process.env.EVENTSTORE_URL. Either way its
 * reads give every event at its type's current payload version (upcasting.ts).
 */
export async function createEventStore(opts: CreateEventStoreOptions): Promise<EventStore> {
  // the EventStoreDB client (gRPC) is loaded only when configured: it costs a Postgres start ~0.3 s of CPU
  if (opts.eventstoreUrl) return (await import('./esdb/index.ts')).createEsdbEventStore(opts.eventstoreUrl, { contracts: opts.contracts });
  return createPostgresEventStore(opts.pool, { contracts: opts.contracts });
}
