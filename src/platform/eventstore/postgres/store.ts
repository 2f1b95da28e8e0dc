import pg from 'pg';
import { Subject, takeUntil, throwError, type Observable } from 'rxjs';
import { pollingSubscription } from '../polling.ts';
import {
  WrongExpectedRevision,
  checkFromRevision,
  checkNewStreams,
  checkStreamWrites,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type NewStream,
  type StreamWrite,
  type StreamsAppendResult,
  type AppendedTypes,
  type Position,
  type RecordedEvent,
  type StreamHead,
  type StreamSnapshots,
} from '../port.ts';
import { AppendsBatch } from './appends-batch.ts';
import { NewStreamsBatch } from './new-streams-batch.ts';
import { ReadAllBatch } from './read-all-batch.ts';
import { appendStatement, newStreamsStatement, streamWritesStatement, type AppendedRow, type NewStreamRow } from './append.ts';
import { decodePosition, encodePosition } from './position.ts';
import { EVENT_COLUMNS, eventColumnsWithDataOf, eventColumnsWithMetadataOf, toRecordedEvent, type EventRow } from './rows.ts';
import { STREAM_REVISION_CONSTRAINT } from './schema.ts';
import { postgresSnapshots } from './snapshots.ts';

export interface PostgresEventStoreOptions {
  /** sleep between polls once a subscription has caught up; appends through this instance wake it sooner */
  pollIntervalMs?: number;
  /** events per query while a subscription catches up */
  pageSize?: number;
  /** end the pool in close(); by default whoever created the pool ends it */
  ownsPool?: boolean;
  /**
   * Use named prepared statements (parsed and planned once per connection: about a third more
   * appends per second on Postgres). Off by default because pglite-socket runs every connection
   * in ONE backend session, where a name prepared by one pg connection collides with the same
   * name on the next; createPostgresEventStore turns it on when the server is not PGlite.
   */
  preparedStatements?: boolean;
}

/** 'any' appends that lose a race on the next revision simply try again after the new head. */
const ANY_ATTEMPTS = 5;

/** Calls that write two streams in opposite order can deadlock; the victim tries again. */
const DEADLOCK_ATTEMPTS = 3;

// ORDER BY names are qualified: EVENT_COLUMNS casts them to text under the same names, and an
// unqualified ORDER BY name means the output column, so "10" would sort before "9".
const READ_STREAM = `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY events.stream_revision`;

// Only transactions below the snapshot's xmin have all finished: see position.ts for why.
const READ_ALL = `SELECT ${EVENT_COLUMNS} FROM events
WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
  AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY events.transaction_id, events.global_position
LIMIT $3`;

const READ_ALL_DATA_OF = `SELECT ${eventColumnsWithDataOf(4)} FROM events
WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
  AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY events.transaction_id, events.global_position
LIMIT $3`;

// A rebuild's read: only the types its projector applies (the others are skipped in the server,
// along the same index, instead of being sent and dropped).
const ofTypes = (columns: string) => `SELECT ${columns} FROM events
WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
  AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  AND type = ANY($4::text[])
ORDER BY events.transaction_id, events.global_position
LIMIT $3`;
const READ_ALL_OF_TYPES = ofTypes(EVENT_COLUMNS);
const READ_ALL_OF_TYPES_METADATA_OF = ofTypes(eventColumnsWithMetadataOf(5));

const STREAM_HEAD = 'SELECT max(stream_revision)::text AS revision FROM events WHERE stream_id = $1';

// the last event of a stream along the unique (stream_id, stream_revision) index, read backwards
const STREAM_LAST = `SELECT stream_revision::text AS revision, transaction_id::text AS transaction_id, global_position::text AS global_position
FROM events WHERE stream_id = $1 ORDER BY stream_revision DESC LIMIT 1`;

// each stream's head (null: no such stream) in the order given; max() per stream uses the unique index
const STREAM_HEADS = `SELECT s.stream_id, (SELECT max(stream_revision) FROM events WHERE events.stream_id = s.stream_id)::text AS revision
FROM unnest($1::text[]) WITH ORDINALITY AS s(stream_id, ord)
ORDER BY s.ord`;

/**
 * The event store on Postgres through `pg`; the same SQL runs on PGlite behind pglite-socket.
 * Every operation is a single statement on whichever pool connection is free, so no transaction
 * is ever held open while waiting for another connection. Run migrateEventStore(pool) first.
 */
export class PostgresEventStore implements EventStore {
  readonly appended$: Observable<Position>;
  readonly appendedTypes$: Observable<AppendedTypes>;
  readonly snapshots: StreamSnapshots;
  private readonly appendedTypes = new Subject<AppendedTypes>();
  private readonly appended = new Subject<Position>();
  private readonly closing = new Subject<void>();
  private readonly loops = new Set<Promise<void>>();
  private readonly newStreams = new NewStreamsBatch((streams) => this.startStreams(streams));
  private readonly appends = new AppendsBatch((writes) => this.appendTogether(writes), (w) => this.appendAlone(w.streamId, w.events, w.expected));
  private readonly pages = new ReadAllBatch((after, limit, onlyDataOf) => this.readPage(after, limit, onlyDataOf));
  private readonly pollIntervalMs: number;
  private readonly pageSize: number;
  private readonly ownsPool: boolean;
  private readonly prepared: boolean;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresEventStoreOptions = {},
  ) {
    this.appended$ = this.appended.asObservable();
    this.appendedTypes$ = this.appendedTypes.asObservable();
    this.snapshots = postgresSnapshots(pool);
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.pageSize = options.pageSize ?? 500;
    this.ownsPool = options.ownsPool ?? false;
    this.prepared = options.preparedStatements ?? false;
  }

  /**
   * Appends made together (one cascade of promise callbacks) share one statement (AppendsBatch); each is
   * still all or nothing, with its own conflict. An 'any' append goes alone: it has no revision to
   * guard in a combined statement.
   */
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (expected === 'any') return this.appendAlone(streamId, events, expected);
    const write: StreamWrite = { streamId, events, expected: expected === -1 ? 'no_stream' : expected };
    try {
      checkStreamWrites([write]);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.appends.submit(write);
  }

  private async appendAlone(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const statement = appendStatement(streamId, events, expected, this.prepared);
    for (let attempt = 1; ; attempt++) {
      let rows: AppendedRow[];
      try {
        rows = (await this.write<AppendedRow>(statement)).rows;
      } catch (error) {
        if (!isUniqueViolation(error, STREAM_REVISION_CONSTRAINT)) throw error;
        if (expected === 'any' && attempt < ANY_ATTEMPTS) continue;
        throw await this.conflict(streamId, expected);
      }
      const last = rows.at(-1);
      if (!last) throw await this.conflict(streamId, expected);
      // rows come back in insertion order (ORDER BY ord): the last one has the highest revision
      const position = encodePosition(last.transaction_id, last.global_position);
      this.appended.next(position);
      this.appendedTypes.next({ position, types: events.map((e) => e.type) });
      return { nextRevision: Number(last.stream_revision), position };
    }
  }

  /** Several calls' appends in one statement (AppendsBatch): any failure is the batch's cue to try each alone. */
  private async appendTogether(writes: readonly StreamWrite[]): Promise<AppendResult[]> {
    const { rows } = await this.write<NewStreamRow>(streamWritesStatement(writes, this.prepared));
    if (rows.length === 0) throw new Error('a combined append met a moved stream');
    const results = resultsInOrder(writes, rows);
    this.announce(rows, writes.flatMap((w) => w.events.map((e) => e.type)));
    return results;
  }

  /** Concurrent calls share one statement (NewStreamsBatch); each call is still all or nothing. */
  appendToNewStreams(streams: readonly NewStream[]): Promise<AppendResult[]> {
    try {
      checkNewStreams(streams);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.newStreams.submit(streams);
  }

  /** One statement that starts `streams`, all or nothing. */
  private async startStreams(streams: readonly NewStream[]): Promise<AppendResult[]> {
    const rows = await this.writeStreams(newStreamsStatement(streams, this.prepared), () => this.newStreamsConflict(streams));
    const results = resultsInOrder(streams, rows);
    this.announce(rows, streams.flatMap((s) => s.events.map((e) => e.type)));
    return results;
  }

  /** One statement (see streamWritesStatement): all or nothing, positions in the order given. */
  async appendToStreams(writes: readonly StreamWrite[]): Promise<StreamsAppendResult> {
    const rows = await this.writeStreams(streamWritesStatement(writes, this.prepared), () => this.streamWritesConflict(writes));
    const results = resultsInOrder(writes, rows);
    const position = this.announce(rows, writes.flatMap((w) => w.events.map((e) => e.type)));
    return { streams: writes.map(({ streamId }, i) => ({ streamId, nextRevision: (results[i] as AppendResult).nextRevision })), position };
  }

  /** Runs a several-stream statement; zero rows or a revision collision is `conflict()`'s error. */
  private async writeStreams(statement: pg.QueryConfig, conflict: () => Promise<WrongExpectedRevision>): Promise<NewStreamRow[]> {
    let rows: NewStreamRow[];
    for (let attempt = 1; ; attempt++) {
      try {
        rows = (await this.write<NewStreamRow>(statement)).rows;
        break;
      } catch (error) {
        // two calls that share streams in opposite order can deadlock on the unique index; the
        // victim wrote nothing, and trying again meets the winner's rows as a plain conflict
        if (isDeadlock(error) && attempt < DEADLOCK_ATTEMPTS) continue;
        if (!isUniqueViolation(error, STREAM_REVISION_CONSTRAINT)) throw error;
        throw await conflict();
      }
    }
    if (rows.length === 0) throw await conflict();
    return rows;
  }

  /**
   * An appending statement on a client of its own. pg's `pool.query` throws away the connection on
   * any error, and a lost race (a unique violation, a deadlock victim) is an answer the server
   * gave on a healthy connection: keeping it spares a new backend per conflict, which on a hot
   * stream was most of the cost of losing. Errors without an SQLSTATE (the socket) still discard it.
   */
  private async write<Row extends pg.QueryResultRow>(statement: pg.QueryConfig): Promise<pg.QueryResult<Row>> {
    const client = await this.pool.connect();
    let failed: unknown;
    try {
      return await client.query<Row>(statement);
    } catch (error) {
      failed = error;
      throw error;
    } finally {
      client.release(failed !== undefined && !hasSqlState(failed) ? (failed as Error) : undefined);
    }
  }

  /** One wake-up for a whole statement: its last row has the highest position. */
  private announce(rows: readonly NewStreamRow[], types: string[]): Position {
    const last = rows.at(-1) as NewStreamRow;
    const position = encodePosition(last.transaction_id, last.global_position);
    this.appended.next(position);
    this.appendedTypes.next({ position, types });
    return position;
  }

  async readStream(streamId: string, from = 0): Promise<RecordedEvent[]> {
    checkFromRevision(from);
    const { rows } = await this.pool.query<EventRow>(this.statement('eventstore_read_stream', READ_STREAM, [streamId, from]));
    return rows.map(toRecordedEvent);
  }

  async streamHead(streamId: string): Promise<StreamHead | null> {
    const { rows } = await this.pool.query<{ revision: string; transaction_id: string; global_position: string }>(
      this.statement('eventstore_stream_last', STREAM_LAST, [streamId]),
    );
    const last = rows[0];
    return last ? { revision: Number(last.revision), position: encodePosition(last.transaction_id, last.global_position) } : null;
  }

  /** Calls for the same page in one turn of the event loop share one statement (ReadAllBatch). */
  async readAll(after: Position, limit: number, onlyDataOf?: readonly string[]): Promise<RecordedEvent[]> {
    if (!(Number.isSafeInteger(limit) && limit > 0)) throw new RangeError(`readAll: limit ${limit} is not a positive integer`);
    decodePosition(after); // a bad position fails its own call, not the page it would share
    return this.pages.submit(after, limit, onlyDataOf);
  }

  async readAllOfTypes(after: Position, limit: number, types: readonly string[], metadataOf?: readonly string[]): Promise<RecordedEvent[]> {
    if (!(Number.isSafeInteger(limit) && limit > 0)) throw new RangeError(`readAllOfTypes: limit ${limit} is not a positive integer`);
    const { transactionId, globalPosition } = decodePosition(after);
    const statement = metadataOf
      ? this.statement('eventstore_read_all_of_types_metadata_of', READ_ALL_OF_TYPES_METADATA_OF, [transactionId, globalPosition, limit, types, metadataOf])
      : this.statement('eventstore_read_all_of_types', READ_ALL_OF_TYPES, [transactionId, globalPosition, limit, types]);
    const { rows } = await this.pool.query<EventRow>(statement);
    return rows.map(toRecordedEvent);
  }

  private async readPage(after: Position, limit: number, onlyDataOf?: readonly string[]): Promise<RecordedEvent[]> {
    const { transactionId, globalPosition } = decodePosition(after);
    const statement = onlyDataOf
      ? this.statement('eventstore_read_all_data_of', READ_ALL_DATA_OF, [transactionId, globalPosition, limit, onlyDataOf])
      : this.statement('eventstore_read_all', READ_ALL, [transactionId, globalPosition, limit]);
    const { rows } = await this.pool.query<EventRow>(statement);
    return rows.map(toRecordedEvent);
  }

  subscribe(after: Position): Observable<RecordedEvent> {
    if (this.closed) return throwError(() => new Error('event store is closed'));
    decodePosition(after); // a bad checkpoint fails here, not on the first poll
    return pollingSubscription((from, limit) => this.readAll(from, limit), this.appended$, after, {
      pageSize: this.pageSize,
      pollIntervalMs: this.pollIntervalMs,
      track: (loop) => {
        this.loops.add(loop);
        void loop.finally(() => this.loops.delete(loop));
      },
    }).pipe(takeUntil(this.closing));
  }

  /** Completes every subscription and appended$, waits for running polls, ends the pool if owned. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.next();
    this.closing.complete();
    this.appended.complete();
    this.appendedTypes.complete();
    await Promise.all([...this.loops]);
    if (this.ownsPool) await this.pool.end();
  }

  private statement(name: string, text: string, values: unknown[]): pg.QueryConfig {
    return this.prepared ? { name, text, values } : { text, values };
  }

  /** The conflict error, with the stream's head as read just now (one extra query, failures only). */
  private async conflict(streamId: string, expected: ExpectedRevision): Promise<WrongExpectedRevision> {
    const actual = await this.pool
      .query<{ revision: string | null }>(STREAM_HEAD, [streamId])
      .then(({ rows }) => {
        const revision = rows[0]?.revision;
        return revision == null ? ('no_stream' as const) : Number(revision);
      })
      .catch(() => 'unknown' as const);
    return new WrongExpectedRevision(streamId, expected, actual);
  }

  /** The conflict error for the first of `streams` that exists (one extra query, failures only). */
  private async newStreamsConflict(streams: readonly NewStream[]): Promise<WrongExpectedRevision> {
    const ids = streams.map((s) => s.streamId);
    const heads = await this.pool
      .query<{ stream_id: string; revision: string | null }>(STREAM_HEADS, [ids])
      .then(({ rows }) => rows)
      .catch(() => []);
    const existing = heads.find((head) => head.revision != null);
    // only if the lookup failed: one of these streams exists, which one is not known
    if (existing?.revision == null) return new WrongExpectedRevision(ids.join(', '), 'no_stream', 'unknown');
    return new WrongExpectedRevision(existing.stream_id, 'no_stream', Number(existing.revision));
  }

  /** The conflict error for the first of `writes` not at its expected revision (one extra query, failures only). */
  private async streamWritesConflict(writes: readonly StreamWrite[]): Promise<WrongExpectedRevision> {
    const heads = await this.pool
      .query<{ stream_id: string; revision: string | null }>(STREAM_HEADS, [writes.map((w) => w.streamId)])
      .then(({ rows }) => rows)
      .catch(() => []);
    for (const [i, { streamId, expected }] of writes.entries()) {
      const head = heads[i];
      if (head?.stream_id !== streamId) continue;
      const actual = head.revision == null ? 'no_stream' : Number(head.revision);
      if (actual !== expected) return new WrongExpectedRevision(streamId, expected, actual);
    }
    // only if the lookup failed: one of these streams moved, which one is not known
    return new WrongExpectedRevision(writes.map((w) => w.streamId).join(', '), writes[0]?.expected ?? 'no_stream', 'unknown');
  }
}

/** One result per stream, in the order given: each stream's last row (rows follow ORDER BY ord). */
function resultsInOrder(streams: readonly { streamId: string }[], rows: readonly NewStreamRow[]): AppendResult[] {
  const last = new Map<string, AppendResult>();
  for (const row of rows) {
    last.set(row.stream_id, { nextRevision: Number(row.stream_revision), position: encodePosition(row.transaction_id, row.global_position) });
  }
  return streams.map(({ streamId }) => {
    const result = last.get(streamId);
    if (!result) throw new Error(`append: no row came back for ${streamId}`);
    return result;
  });
}

/** An error the server answered with (an SQLSTATE): the connection itself is fine. */
function hasSqlState(error: unknown): boolean {
  return error instanceof pg.DatabaseError;
}

function isDeadlock(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '40P01';
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === '23505' &&
    'constraint' in error &&
    error.constraint === constraint
  );
}
