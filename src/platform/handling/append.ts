import { WrongExpectedRevision, type AppendResult, type EventStore, type ExpectedRevision, type NewEvent, type StreamsAppendResult } from '../eventstore/port.ts';

/**
 * The client's If-Match named a version the stream is no longer at (a 412 with the stream's
 * current version). Raised only for the stream the client named: a race lost on any other stream
 * the command writes (a month's usage, a number's claim) stays a plain WrongExpectedRevision (409).
 * Never retried: the client asserted that version.
 */
export class VersionMismatch extends WrongExpectedRevision {
  constructor(streamId: string, expected: number, actual: number | 'no_stream' | 'unknown') {
    super(streamId, expected, actual);
    this.name = 'VersionMismatch';
  }

  /** the stream's version now, where the store knows it: what the client reloads to */
  get current(): number | null {
    return typeof this.actual === 'number' ? this.actual : null;
  }
}

/**
 * The revision a write must find its stream at; one of three, never a mix:
 * - `revision`: the one its writer read or holds (-1: the stream did not exist); losing the race
 *   is a WrongExpectedRevision, which the writer may decide again on (retryOnConflict);
 * - `ifMatch`: the client's If-Match; losing is a VersionMismatch (412), never retried;
 * - `newStream`: a stream that must not exist yet.
 */
export type WriteAt =
  | { revision: number; ifMatch?: never; newStream?: never }
  | { ifMatch: number; revision?: never; newStream?: never }
  | { newStream: true; revision?: never; ifMatch?: never };

/** One stream's part of a write: its events, and the revision it must be at. */
export interface Write {
  streamId: string;
  events: NewEvent[];
  at: WriteAt;
}

const expectedOf = (at: WriteAt): number | 'no_stream' => {
  const revision = at.newStream ? -1 : (at.ifMatch ?? at.revision);
  return revision < 0 ? 'no_stream' : revision;
};

/** A conflict on the stream a write names by If-Match is the client's VersionMismatch; any other stays as it is. */
function classified(error: unknown, writes: readonly Write[]): unknown {
  if (!(error instanceof WrongExpectedRevision) || error instanceof VersionMismatch) return error;
  const named = writes.find((w) => w.streamId === error.streamId && w.at.ifMatch !== undefined);
  return named?.at.ifMatch !== undefined ? new VersionMismatch(error.streamId, named.at.ifMatch, error.actual) : error;
}

/**
 * Appends decided events to one stream at the revision they were decided on: with the command
 * path's other parts (handleCommand, streamInTurn, GroupCommit, the multi-stream writes), the one
 * way events reach the store, but for appendToLog. The store's `append`, so concurrent appends
 * still share a statement where the store batches them.
 */
export async function appendAt(store: Pick<EventStore, 'append'>, write: Write): Promise<AppendResult> {
  try {
    return await store.append(write.streamId, write.events, expectedOf(write.at));
  } catch (error) {
    throw classified(error, [write]);
  }
}

/**
 * Several streams in one write, each at its own revision, e.g. a new stream with its unique
 * value's claim, or an invoice's reservation with the credit note it starts (the owning stream
 * first: see EventStore.appendToStreams). Only new streams: `appendToNewStreams` (batched across
 * concurrent calls); otherwise `appendToStreams`. All or nothing on Postgres and PGlite. A
 * conflict names its stream (a VersionMismatch for the one named by If-Match).
 */
export async function appendAll(store: Pick<EventStore, 'appendToNewStreams' | 'appendToStreams'>, writes: readonly Write[]): Promise<StreamsAppendResult> {
  try {
    if (writes.every((w) => w.at.newStream)) {
      const appended = await store.appendToNewStreams(writes.map(({ streamId, events }) => ({ streamId, events })));
      const last = appended[appended.length - 1];
      if (!last || appended.length !== writes.length) throw new Error(`appendToNewStreams gave ${appended.length} results for ${writes.length} streams`);
      return { streams: writes.map((w, i) => ({ streamId: w.streamId, nextRevision: appended[i]?.nextRevision ?? -1 })), position: last.position };
    }
    return await store.appendToStreams(writes.map(({ streamId, events, at }) => ({ streamId, events, expected: expectedOf(at) })));
  } catch (error) {
    throw classified(error, writes);
  }
}

/** A stream's last revision after a multi-stream append. */
export function revisionIn(appended: StreamsAppendResult, streamId: string): number {
  const written = appended.streams.find((s) => s.streamId === streamId);
  if (!written) throw new Error(`${streamId} was not in the append`);
  return written.nextRevision;
}

/**
 * The one append outside the command path: a log stream that only ever grows, whose events no
 * decider folds and no command decides on (the security log, an invoice's failed validations).
 * Written with 'any': nothing read can be stale, so there is no revision to expect and no race to
 * lose, and two writers at once must both be kept.
 */
export function appendToLog(store: Pick<EventStore, 'append'>, streamId: string, events: NewEvent[]): Promise<AppendResult> {
  const any: ExpectedRevision = 'any';
  return store.append(streamId, events, any);
}
