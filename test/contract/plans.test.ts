import { expect } from 'chai';
import pg from 'pg';
import { createEventStore } from '../../src/platform/eventstore/index.ts';
import { appendStatement } from '../../src/platform/eventstore/postgres/index.ts';
import { newStreamsStatement, streamWritesStatement } from '../../src/platform/eventstore/postgres/append.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

/** Every relation a plan scans sequentially (EXPLAIN's JSON format). */
function sequentialScans(plan: unknown): string[] {
  if (Array.isArray(plan)) return plan.flatMap(sequentialScans);
  if (typeof plan !== 'object' || plan === null) return [];
  const node = plan as Record<string, unknown>;
  const own = node['Node Type'] === 'Seq Scan' ? [String(node['Relation Name'])] : [];
  return [...own, ...Object.values(node).flatMap(sequentialScans)];
}

describe('event store plans on a young table (never analyzed)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  before(async () => {
    database = await freshDatabase();
    pool = new pg.Pool({ connectionString: database.connectionString, max: 2 });
    await (await createEventStore({ pool })).close();
    // eight thousand invoice streams of a few KB each, as a busy first minute leaves them, and no
    // ANALYZE: the data lives in TOAST, the table has few pages, and the planner, guessing its row
    // count from them, thought a sequential scan would find a stream_id = ANY(...) at once
    await pool.query(`INSERT INTO events (event_id, stream_id, stream_revision, type, data, metadata)
      SELECT gen_random_uuid(), 'invoice-' || n, 0, 'InvoiceCreated',
        json_build_object('lines', (SELECT json_agg(md5((n * 100 + i)::text)) FROM generate_series(1, 60) AS i)), '{}'
      FROM generate_series(1, 8000) AS n`);
  });
  after(async () => {
    await pool.end();
    await database.drop();
  });

  const scans = async (statement: pg.QueryConfig) => {
    const { rows } = await pool.query({ text: `EXPLAIN (FORMAT JSON) ${statement.text}`, values: statement.values });
    return sequentialScans(rows[0]['QUERY PLAN']);
  };
  const event = () => ({ id: crypto.randomUUID(), type: 'Happened', data: {}, metadata: {} });

  // the guards look for streams that do not exist: a sequential scan would read the whole table
  // on every append, and statistics that would say so are a minute (autovacuum) away
  it('starting new streams probes the unique index, not the table', async () => {
    expect(await scans(newStreamsStatement([{ streamId: 'claim-x', events: [event()] }, { streamId: 'invoice-x', events: [event()] }]))).to.deep.equal([]);
  });

  it('a no_stream append probes the unique index, not the table', async () => {
    expect(await scans(appendStatement('invoice-y', [event()], 'no_stream'))).to.deep.equal([]);
  });

  it('an append at a revision and an any append probe the unique index, not the table', async () => {
    expect(await scans(appendStatement('invoice-1', [event()], 0))).to.deep.equal([]);
    expect(await scans(appendStatement('invoice-1', [event()], 'any'))).to.deep.equal([]);
  });

  it('appending to several streams probes the unique index for each, not the table', async () => {
    const writes = [
      { streamId: 'invoice-2', events: [event()], expected: 0 },
      { streamId: 'credit-note-x', events: [event(), event()], expected: 'no_stream' as const },
      { streamId: 'invoice-3', events: [event()], expected: 0 },
    ];
    expect(await scans(streamWritesStatement(writes))).to.deep.equal([]);
  });
});
