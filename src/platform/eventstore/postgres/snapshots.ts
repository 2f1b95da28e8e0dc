import type pg from 'pg';
import type { StreamSnapshot, StreamSnapshots } from '../port.ts';

const LOAD = 'SELECT revision::text AS revision, state FROM stream_snapshots WHERE stream_id = $1 AND version = $2';

// a snapshot of a later revision is never replaced by an earlier one (two writers of one stream)
const SAVE = `INSERT INTO stream_snapshots (stream_id, version, revision, state) VALUES ($1, $2, $3, $4::json)
ON CONFLICT (stream_id, version) DO UPDATE SET revision = excluded.revision, state = excluded.state, saved_at = now()
WHERE stream_snapshots.revision < excluded.revision`;

/** Stream snapshots in the event store's own database (table stream_snapshots, schema.ts). */
export function postgresSnapshots(pool: pg.Pool): StreamSnapshots {
  return {
    async load(streamId: string, version: number): Promise<StreamSnapshot | null> {
      const { rows } = await pool.query<{ revision: string; state: unknown }>(LOAD, [streamId, version]);
      const row = rows[0];
      return row ? { revision: Number(row.revision), state: row.state } : null;
    },
    async save(streamId: string, version: number, snapshot: StreamSnapshot): Promise<void> {
      await pool.query(SAVE, [streamId, version, snapshot.revision, JSON.stringify(snapshot.state)]);
    },
  };
}
