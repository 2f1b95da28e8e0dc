import type pg from 'pg';
import { checkNewStreams, checkStreamWrites, type ExpectedRevision, type NewEvent, type NewStream, type StreamWrite } from '../port.ts';

/*
 * An append is ONE statement, so it needs no explicit transaction and one round trip:
 * the events arrive as one JSON array (json_to_recordset: one JSON.stringify here, no array
 * literal to escape), each with its number `ord` 1..n, and the WHERE clause checks the expected
 * revision in the same snapshot that inserts. Revisions are base + ord. If another append got
 * there first, either the WHERE filters every row out (zero rows) or the UNIQUE
 * (stream_id, stream_revision) constraint fires (the two raced past the check): both mean "wrong
 * expected revision", and the statement writes nothing either way. ORDER BY ord makes
 * global_position follow revision order inside the batch.
 */

interface Guard {
  /** SQL for the revision just before the first new event */
  base: string;
  /** SQL condition the stream must satisfy */
  check: string;
  /** prepared-statement name, used only where statements may be named (see below) */
  name: string;
}

const GUARDS = {
  // the event at revision N must exist; if N is not the last one, N + 1 collides on the unique key
  revision: {
    name: 'eventstore_append_revision',
    base: '$3::bigint',
    check: 'EXISTS (SELECT 1 FROM events WHERE stream_id = $1 AND stream_revision = $3::bigint)',
  },
  // a stream exists iff it has revision 0 (revisions start at 0, events are never deleted): the
  // full unique key is a one-row index probe whatever the statistics say; stream_id alone, on a
  // young table never analyzed, is estimated to match many rows and planned as a sequential scan
  no_stream: {
    name: 'eventstore_append_no_stream',
    base: '-1',
    check: 'NOT EXISTS (SELECT 1 FROM events WHERE stream_id = $1 AND stream_revision = 0)',
  },
  any: {
    name: 'eventstore_append_any',
    base: '(SELECT coalesce(max(stream_revision), -1) FROM events WHERE stream_id = $1)',
    check: 'TRUE',
  },
} satisfies Record<string, Guard>;

function sql(guard: Guard): string {
  return `INSERT INTO events (event_id, stream_id, stream_revision, type, data, metadata)
SELECT e.event_id, $1, ${guard.base} + e.ord, e.type, e.data, e.metadata
FROM json_to_recordset($2::json) AS e(event_id uuid, type text, data json, metadata json, ord bigint)
WHERE ${guard.check}
ORDER BY e.ord
RETURNING global_position::text AS global_position, transaction_id::text AS transaction_id,
  stream_revision::text AS stream_revision`;
}

export interface AppendedRow {
  global_position: string;
  transaction_id: string;
  stream_revision: string;
}

/**
 * The statement the adapter runs for one append, exported so a test can run exactly the same
 * insert inside a transaction it holds open (the out-of-order proof).
 */
export function appendStatement(
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision,
  prepared = false,
): pg.QueryConfig {
  if (events.length === 0) throw new RangeError(`append to ${streamId}: no events`);
  if (expected === -1) expected = 'no_stream';
  if (typeof expected === 'number' && !(Number.isSafeInteger(expected) && expected >= 0)) {
    throw new RangeError(`append to ${streamId}: expected revision ${expected} is not a revision`);
  }
  const guard = typeof expected === 'number' ? GUARDS.revision : GUARDS[expected];
  const values: unknown[] = [
    streamId,
    JSON.stringify(events.map((e, i) => ({ event_id: e.id, type: e.type, data: e.data, metadata: e.metadata, ord: i + 1 }))),
  ];
  if (typeof expected === 'number') values.push(expected);
  return prepared ? { name: guard.name, text: sql(guard), values } : { text: sql(guard), values };
}

/*
 * Starting several streams is ONE statement too, built the same way: every event of every stream
 * in one JSON array, with its stream id and its revision (0-based within its own stream). The guard
 * (none of the streams has a revision 0: the same index probe as no_stream) is uncorrelated, so it
 * keeps every row or none; if another append started one of the streams after our snapshot, its
 * revision 0 collides on the unique key and the whole statement writes nothing. ORDER BY ord makes
 * global_position follow the order given.
 */
const NEW_STREAMS = `INSERT INTO events (event_id, stream_id, stream_revision, type, data, metadata)
SELECT e.event_id, e.stream_id, e.stream_revision, e.type, e.data, e.metadata
FROM json_to_recordset($1::json)
  AS e(event_id uuid, stream_id text, stream_revision bigint, type text, data json, metadata json, ord bigint)
WHERE NOT EXISTS (SELECT 1 FROM events WHERE stream_id = ANY($2::text[]) AND stream_revision = 0)
ORDER BY e.ord
RETURNING global_position::text AS global_position, transaction_id::text AS transaction_id,
  stream_id, stream_revision::text AS stream_revision`;

export interface NewStreamRow extends AppendedRow {
  stream_id: string;
}

/** The statement that starts `streams` (validated first: see checkNewStreams). */
export function newStreamsStatement(streams: readonly NewStream[], prepared = false): pg.QueryConfig {
  checkNewStreams(streams);
  let ord = 0;
  const events = streams.flatMap(({ streamId, events }) =>
    events.map((e, revision) => ({ event_id: e.id, stream_id: streamId, stream_revision: revision, type: e.type, data: e.data, metadata: e.metadata, ord: ++ord })),
  );
  const values: unknown[] = [JSON.stringify(events), streams.map((s) => s.streamId)];
  return prepared ? { name: 'eventstore_append_new_streams', text: NEW_STREAMS, values } : { text: NEW_STREAMS, values };
}

/*
 * Appending to several streams, each at its own expected revision, is ONE statement as well: the
 * events as in NEW_STREAMS (revisions computed here from each stream's expected revision), and one
 * guard row per stream. The guard is uncorrelated with the inserted rows, so it keeps all of them
 * or none: no guard row may fail its probe, and each probe is equality on the full unique key
 * (stream_id, stream_revision), so the index answers whatever the statistics say. A stream at
 * revision N must have its event N (if N is not its last, our N + 1 collides on the unique key);
 * a new stream (expected null) must have no revision 0. The probe is a scalar subquery on purpose:
 * an EXISTS there the planner may run as a hashed subplan, i.e. a scan of every event (it did, on
 * a young table: test/contract/plans.test.ts).
 * A competitor that commits after our snapshot collides on the unique key, and the whole
 * statement writes nothing. ORDER BY ord gives global positions in the order given.
 */
const STREAM_WRITES = `INSERT INTO events (event_id, stream_id, stream_revision, type, data, metadata)
SELECT e.event_id, e.stream_id, e.stream_revision, e.type, e.data, e.metadata
FROM json_to_recordset($1::json)
  AS e(event_id uuid, stream_id text, stream_revision bigint, type text, data json, metadata json, ord bigint)
WHERE NOT EXISTS (
  SELECT 1 FROM json_to_recordset($2::json) AS g(stream_id text, expected bigint)
  WHERE (g.expected IS NULL) = ((
    SELECT 1 FROM events WHERE events.stream_id = g.stream_id AND events.stream_revision = coalesce(g.expected, 0)
  ) IS NOT NULL))
ORDER BY e.ord
RETURNING global_position::text AS global_position, transaction_id::text AS transaction_id,
  stream_id, stream_revision::text AS stream_revision`;

/** The statement that appends `writes` (validated first: see checkStreamWrites). */
export function streamWritesStatement(writes: readonly StreamWrite[], prepared = false): pg.QueryConfig {
  checkStreamWrites(writes);
  let ord = 0;
  const events = writes.flatMap(({ streamId, events, expected }) => {
    const base = expected === 'no_stream' ? 0 : expected + 1;
    return events.map((e, i) => ({ event_id: e.id, stream_id: streamId, stream_revision: base + i, type: e.type, data: e.data, metadata: e.metadata, ord: ++ord }));
  });
  // expected null: the stream must not exist
  const guards = writes.map(({ streamId, expected }) => ({ stream_id: streamId, expected: expected === 'no_stream' ? null : expected }));
  const values: unknown[] = [JSON.stringify(events), JSON.stringify(guards)];
  return prepared ? { name: 'eventstore_append_streams', text: STREAM_WRITES, values } : { text: STREAM_WRITES, values };
}
