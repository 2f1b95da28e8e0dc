import type pg from 'pg';
import type { StoredEventRewrite } from '../rewrite.ts';

// Any constant other than the schema migration's: two starting instances take turns.
const REWRITE_LOCK = 7_406_113_202;

const STORED = `SELECT global_position::text AS position, event_id::text AS id, stream_id, stream_revision::int AS revision, type, data, metadata
FROM events WHERE type = $1 ORDER BY global_position`;

interface Row {
  position: string;
  id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/**
 * Runs a rewrite (../rewrite.ts) on the events table, unless this store has done it already: one
 * transaction, so a rewrite that fails (its key missing) changes nothing and the start fails.
 * Answers how many events it rewrote, or null when it had run before. It reads every event of the
 * type (no index on type: a sequential scan, once per store).
 */
export async function rewriteStoredEvents(pool: pg.Pool, rewrite: StoredEventRewrite): Promise<number | null> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [REWRITE_LOCK]);
    const done = await client.query('SELECT 1 FROM event_rewrites WHERE name = $1', [rewrite.name]);
    if (done.rowCount) {
      await client.query('ROLLBACK');
      return null;
    }
    const { rows } = await client.query<Row>(STORED, [rewrite.type]);
    for (const row of rows) {
      const next = await rewrite.rewrite({ id: row.id, streamId: row.stream_id, revision: row.revision, type: row.type, data: row.data, metadata: row.metadata });
      await client.query('UPDATE events SET type = $2, data = $3::json, metadata = $4::json WHERE global_position = $1', [
        row.position, next.type, JSON.stringify(next.data), JSON.stringify(next.metadata),
      ]);
    }
    await client.query('INSERT INTO event_rewrites (name, events) VALUES ($1, $2)', [rewrite.name, rows.length]);
    await client.query('COMMIT');
    return rows.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
