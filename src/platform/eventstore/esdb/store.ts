import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
} from '@eventstore/db-client';
import { Observable, Subject, takeUntil, throwError } from 'rxjs';
import {
  START,
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
} from '../port.ts';
import { fromCurrentRevision, isSystemEvent, toEventData, toExpectedRevision, toRecordedEvent } from './mapping.ts';
import { encodePosition, toReadPosition } from './position.ts';
import { upcastOnRead, type EventContracts } from '../upcasting.ts';

/** How many $all records one readAll request asks for at least (system events are skipped client-side). */
const MIN_BATCH = 100;

/**
 * The event store on EventStoreDB. Streams map one to one; $all without system events is the
 * all-events order, and a Position is its (commit, prepare) log position. Reading $all needs a
 * user allowed to (the connection string's credentials, e.g. admin or an $ops member).
 */
export class EsdbEventStore implements EventStore {
  readonly appended$: Observable<Position>;
  readonly appendedTypes$: Observable<AppendedTypes>;
  private readonly appendedTypes = new Subject<AppendedTypes>();
  private readonly appended = new Subject<Position>();
  private readonly closing = new Subject<void>();
  private closed = false;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly ownsClient = true,
  ) {
    this.appended$ = this.appended.asObservable();
    this.appendedTypes$ = this.appendedTypes.asObservable();
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError(`append to ${streamId}: no events`);
    const expectedRevision = toExpectedRevision(expected);
    let result;
    try {
      result = await this.client.appendToStream(streamId, events.map(toEventData), { expectedRevision });
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new WrongExpectedRevision(streamId, expected, fromCurrentRevision(error.actualVersion));
      }
      throw error;
    }
    // only when the connection string says throwOnAppendFailure=false
    if (!result.success) {
      const actual = result.nextExpectedRevision;
      throw new WrongExpectedRevision(streamId, expected, actual < 0n ? 'no_stream' : Number(actual));
    }
    const position = result.position ? encodePosition(result.position) : await this.headOfAll();
    this.appended.next(position);
    this.appendedTypes.next({ position, types: events.map((e) => e.type) });
    return { nextRevision: Number(result.nextExpectedRevision), position };
  }

  /** Not atomic: EventStoreDB appends to one stream at a time, so the streams go one by one, in order. */
  async appendToNewStreams(streams: readonly NewStream[]): Promise<AppendResult[]> {
    checkNewStreams(streams);
    const results: AppendResult[] = [];
    for (const { streamId, events } of streams) results.push(await this.append(streamId, events, 'no_stream'));
    return results;
  }

  /**
   * Not atomic: EventStoreDB appends to one stream at a time, so the streams go one by one, in the
   * order given, and the first conflict stops the rest (see the port for the order callers use:
   * the owning stream first, then new streams with deterministic ids).
   */
  async appendToStreams(writes: readonly StreamWrite[]): Promise<StreamsAppendResult> {
    checkStreamWrites(writes);
    const streams: StreamsAppendResult['streams'] = [];
    let position = START;
    for (const { streamId, events, expected } of writes) {
      const result = await this.append(streamId, events, expected);
      streams.push({ streamId, nextRevision: result.nextRevision });
      position = result.position;
    }
    return { streams, position };
  }

  async readStream(streamId: string, from = 0): Promise<RecordedEvent[]> {
    checkFromRevision(from);
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, { direction: FORWARDS, fromRevision: from === 0 ? ESDB_START : BigInt(from) })) {
        if (resolved.event) events.push(toRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async streamHead(streamId: string): Promise<StreamHead | null> {
    try {
      for await (const resolved of this.client.readStream(streamId, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
        if (resolved.event) {
          const last = toRecordedEvent(resolved.event);
          return { revision: last.revision, position: last.position };
        }
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
    return null;
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    if (!(Number.isSafeInteger(limit) && limit > 0)) throw new RangeError(`readAll: limit ${limit} is not a positive integer`);
    const batch = Math.max(limit + 1, MIN_BATCH);
    const events: RecordedEvent[] = [];
    let from = after;
    for (;;) {
      let records = 0;
      let last: Position | undefined;
      // fromPosition is inclusive for reads: the record at `from` comes back and is skipped
      for await (const resolved of this.client.readAll({ direction: FORWARDS, fromPosition: toReadPosition(from), maxCount: batch })) {
        records++;
        const event = resolved.event;
        if (!event) continue;
        const position = encodePosition(event.position);
        if (position <= from) continue;
        last = position;
        if (isSystemEvent(event)) continue;
        events.push(toRecordedEvent(event));
        if (events.length === limit) return events;
      }
      // a short batch is the end of $all; `last` unset would mean no progress
      if (records < batch || last === undefined) return events;
      from = last;
    }
  }

  subscribe(after: Position): Observable<RecordedEvent> {
    if (this.closed) return throwError(() => new Error('event store is closed'));
    const fromPosition = toReadPosition(after);
    return new Observable<RecordedEvent>((subscriber) => {
      const subscription = this.client.subscribeToAll({ fromPosition, filter: excludeSystemEvents() });
      let last = after;
      subscription.on('data', (resolved) => {
        const event = resolved.event;
        if (!event || isSystemEvent(event)) return;
        const position = encodePosition(event.position);
        if (position <= last) return; // subscriptions start after fromPosition; guard anyway
        last = position;
        subscriber.next(toRecordedEvent(event));
      });
      subscription.on('error', (error) => subscriber.error(error));
      subscription.on('end', () => subscriber.complete());
      return () => {
        subscription.unsubscribe().catch(() => undefined);
      };
    }).pipe(takeUntil(this.closing));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.next();
    this.closing.complete();
    this.appended.complete();
    this.appendedTypes.complete();
    if (this.ownsClient) await this.client.dispose();
  }

  /** The end of $all: a position at or after any append that has completed (for old servers). */
  private async headOfAll(): Promise<Position> {
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
      if (resolved.event) return encodePosition(resolved.event.position);
    }
    return START;
  }
}

/**
 * A store over a new client for `connectionString` (esdb://...); close() disposes the client. Its
 * reads give every event at its type's current payload version (upcasting.ts); `contracts` names
 * the versions and upcasters, by default those of `events/`.
 */
export function createEsdbEventStore(connectionString: string, options: { contracts?: EventContracts } = {}): EventStore {
  return upcastOnRead(new EsdbEventStore(EventStoreDBClient.connectionString(connectionString), true), options.contracts);
}
