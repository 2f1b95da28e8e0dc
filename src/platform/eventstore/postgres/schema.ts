import type pg from 'pg';

/** Named so the append can tell a revision conflict from a duplicate event id. */
export const STREAM_REVISION_CONSTRAINT = 'events_stream_revision_key';
const EVENT_ID_CONSTRAINT = 'events_event_id_key';

// Any constant works: it only keeps two processes from running the DDL at the same moment.
const MIGRATION_LOCK = 7_406_113_201;

/*
 * data and metadata are json, not jsonb: the store never looks inside them, and json keeps the
 * text as written. jsonb would parse every event into its binary form on append and print it back
 * on every read, which measured as most of the database's work for a follower's read of a
 * 10-line invoice (see bench eventstore).
 */
const DDL = `
CREATE TABLE IF NOT EXISTS events (
  global_position BIGSERIAL PRIMARY KEY,
  transaction_id  XID8        NOT NULL DEFAULT pg_current_xact_id(),
  event_id        UUID        NOT NULL,
  stream_id       TEXT        NOT NULL,
  stream_revision BIGINT      NOT NULL,
  type            TEXT        NOT NULL,
  data            JSON        NOT NULL,
  metadata        JSON        NOT NULL,
  recorded_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
  CONSTRAINT ${EVENT_ID_CONSTRAINT} UNIQUE (event_id),
  CONSTRAINT ${STREAM_REVISION_CONSTRAINT} UNIQUE (stream_id, stream_revision)
);
CREATE INDEX IF NOT EXISTS events_transaction_position_idx ON events (transaction_id, global_position);
-- Snapshots of long streams (Decider.snapshot): a cache beside the events, never in their log.
CREATE TABLE IF NOT EXISTS stream_snapshots (
  stream_id TEXT        NOT NULL,
  version   INTEGER     NOT NULL,
  revision  BIGINT      NOT NULL,
  state     JSON        NOT NULL,
  saved_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (stream_id, version)
);
-- Rewrites of stored events done on this store (src/platform/eventstore/rewrite.ts), each once.
CREATE TABLE IF NOT EXISTS event_rewrites (
  name         TEXT        PRIMARY KEY,
  events       INTEGER     NOT NULL,
  rewritten_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- Stores made before data and metadata were json (they were jsonb): converted once, in place.
DO $$ BEGIN
  IF (SELECT data_type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'events' AND column_name = 'data') = 'jsonb' THEN
    ALTER TABLE events ALTER COLUMN data TYPE json USING data::json, ALTER COLUMN metadata TYPE json USING metadata::json;
  END IF;
END $$;
`;

/**
 * Creates the events table and its indexes if missing; safe to run on every start. The advisory
 * lock serializes concurrent starters (IF NOT EXISTS alone races on the catalog). One client, one
 * short transaction: nothing else is awaited while it is open.
 */
export async function migrateEventStore(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(DDL);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
