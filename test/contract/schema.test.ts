import { expect } from 'chai';
import pg from 'pg';
import { createEventStore } from '../../src/platform/eventstore/index.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

describe('event store schema', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 2 });
  });
  after(async () => {
    await pool.end();
    await database.drop();
  });

  it('converts a store made with jsonb data and metadata to json on start, keeping its events', async () => {
    // the events table as it was made before data and metadata became json
    await pool.query(`CREATE TABLE events (
      global_position BIGSERIAL PRIMARY KEY, transaction_id XID8 NOT NULL DEFAULT pg_current_xact_id(), event_id UUID NOT NULL,
      stream_id TEXT NOT NULL, stream_revision BIGINT NOT NULL, type TEXT NOT NULL, data JSONB NOT NULL, metadata JSONB NOT NULL,
      recorded_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      CONSTRAINT events_event_id_key UNIQUE (event_id), CONSTRAINT events_stream_revision_key UNIQUE (stream_id, stream_revision))`);
    await pool.query(`INSERT INTO events (event_id, stream_id, stream_revision, type, data, metadata)
      VALUES (gen_random_uuid(), 'old-1', 0, 'Happened', '{"názov": "Faktúra", "n": 1}', '{"actor": {"type": "system", "id": "x"}}')`);
    const store = await createEventStore({ pool });
    try {
      const types = await pool.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'events' AND column_name IN ('data', 'metadata') ORDER BY 1`);
      expect(types.rows).to.deep.equal([{ column_name: 'data', data_type: 'json' }, { column_name: 'metadata', data_type: 'json' }]);
      const [old] = await store.readStream('old-1');
      expect(old?.data).to.deep.equal({ názov: 'Faktúra', n: 1 });
      expect(old?.metadata).to.deep.equal({ actor: { type: 'system', id: 'x' } });
      await store.append('old-1', [{ id: crypto.randomUUID(), type: 'Happened', data: { n: 2 }, metadata: {} }], 0);
      expect((await store.readStream('old-1')).map((e) => e.data.n)).to.deep.equal([1, 2]);
    } finally {
      await store.close();
    }
  });
});
