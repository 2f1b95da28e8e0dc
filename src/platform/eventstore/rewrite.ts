import type { EventMetadata } from './port.ts';

/** A stored event as a rewrite reads it: as stored, not upcast. */
export interface StoredEventRow {
  id: string;
  streamId: string;
  revision: number;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

/** What the event is stored as from then on: a type and payload a current release writes. */
export interface RewrittenEvent {
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

/**
 * The one exception to a log that is never changed: events already stored that hold a secret in
 * plaintext (issue 37: TOTP secrets) are rewritten in place, once per store, at start before
 * anything follows the log. Each stored event of `type` becomes what `rewrite` answers, at the
 * same id, stream, revision and position, so every reader folds it as if it had been written so;
 * the answer must therefore be a declared type at its current version (and a stream whose decider
 * keeps snapshots would need them dropped: none of the rewritten ones does). A module declares its
 * rewrites (Module.rewrites); the composition root runs them (Postgres and PGlite only: an
 * EventStoreDB log cannot be changed).
 */
export interface StoredEventRewrite {
  /** recorded when done (table event_rewrites), so a store is rewritten once */
  name: string;
  /** the stored type it rewrites */
  type: string;
  rewrite(event: StoredEventRow): Promise<RewrittenEvent>;
}
