import type { Decider, DomainEvent } from '../../../commands/shared/decider.ts';
import { WrongExpectedRevision, type EventMetadata, type EventStore, type NewEvent, type Position } from '../eventstore/port.ts';
import type { Ids } from '../ports/ids.ts';
import { appendAt, VersionMismatch, type WriteAt } from './append.ts';
import { decideBeforeStale } from './decide-before-stale.ts';
import { catchUpAndFold, keepSnapshot, readAndFold } from './read-and-fold.ts';
import { jitter, retryOnConflict } from './retry.ts';

export interface Handled<Event, State> {
  events: Event[];
  /** the stream's version after the command: what clients send back in If-Match */
  version: number;
  /** where read models must reach to show the effect; null when nothing was appended */
  position: Position | null;
  state: State;
}

/** Decided events as the store takes them: each with a new id and the command's metadata. */
export function toNewEvents(deps: { ids: Ids }, events: readonly DomainEvent<string, object>[], metadata: EventMetadata): NewEvent[] {
  return events.map((e) => ({ id: deps.ids.next(), type: e.type, data: e.data as Record<string, unknown>, metadata }));
}

/** A command, or how to make it from the state read (when it carries something read beside the stream). */
export type CommandOf<Command, State> = Command | ((state: State) => Command | Promise<Command>);

export const commandFor = <Command, State>(command: CommandOf<Command, State>, state: State): Command | Promise<Command> =>
  typeof command === 'function' ? (command as (state: State) => Command | Promise<Command>)(state) : command;

/** A stream's state at a revision, as its caller last read or wrote it. */
export interface Known<State> {
  state: State;
  /** the stream's last revision then; -1: it did not exist */
  revision: number;
}

/** How often a command is decided again on the newer state when another write lands between its read and its append. */
export interface Retry {
  /** 0: the lost race is thrown (WrongExpectedRevision, a 409) */
  onVersionConflict: number;
}

/** The client's If-Match: the stream must be at this version, else VersionMismatch (412); never retried. */
export type IfMatch = { ifMatch: number; newStream?: never; retry?: never; known?: never; atRevision?: never };
/** The stream is named by an id made for this command: nothing to read, no retry; it must not exist. */
export type NewStream = { newStream: true; ifMatch?: never; retry?: never; known?: never; atRevision?: never };
/** At the revision read; a lost race is decided again on the newer state up to `retry.onVersionConflict` times. */
export type AsRead = { retry: Retry; ifMatch?: never; newStream?: never; known?: never; atRevision?: never };
/**
 * On the state the caller holds (it read the stream, or its own last command left it so): decided
 * without reading the stream again. Only the append proves it current (it is made at that
 * revision), so a conflict, a refusal or a decision of nothing on it is decided again on the
 * stream as read, then as AsRead with `retry`.
 */
export type OnKnown<State> = { known: Known<State>; retry?: Retry; ifMatch?: never; newStream?: never; atRevision?: never };
/**
 * At a revision the server itself read beside the command (a validation of the version it
 * checked): the stream is read and must still be there, else WrongExpectedRevision (409, not the
 * client's 412); never retried.
 */
export type AtRevision = { atRevision: number; ifMatch?: never; newStream?: never; retry?: never; known?: never };

/**
 * The revision a command's append expects: exactly one of these. Left out: at the revision read,
 * a lost race thrown (AsRead with no retry).
 */
export type Expected<State> = IfMatch | NewStream | AsRead | OnKnown<State> | AtRevision;

/** The client's If-Match when it sent one, else `otherwise` (left out: at the revision read, not retried). */
export function ifMatchOr<Otherwise extends Exclude<Expected<unknown>, IfMatch> | undefined = undefined>(
  ifMatch: number | undefined,
  otherwise?: Otherwise,
): IfMatch | Otherwise {
  return ifMatch === undefined ? (otherwise as Otherwise) : { ifMatch };
}

/** The options every command takes; which revision it expects is `expected`. */
export interface DecideOptions<Event, State = unknown> {
  metadata: EventMetadata;
  expected?: Expected<State>;
  /**
   * Runs once the decider has accepted and before the append; a throw refuses the command with
   * nothing appended (a quota is taken only for a command that will be written). It must be
   * idempotent: a conflict after it may decide and run it again. Its own lost races (another
   * stream's) are WrongExpectedRevision whatever `expected` is: a 409, never the command's 412.
   */
  beforeAppend?: (events: Event[]) => Promise<void>;
}

/**
 * Read the stream, fold it, decide, append at the revision that was read (see Expected for the
 * revision it expects, and when a lost race is decided again). With If-Match the version must
 * equal the current one, else VersionMismatch (412); a write racing in between the read and the
 * append fails the same way instead of being overwritten.
 */
export async function decideAndAppend<Command, Event extends DomainEvent<string, object>, State>(
  deps: { store: EventStore; ids: Ids },
  streamId: string,
  decider: Decider<Command, Event, State>,
  command: CommandOf<Command, State>,
  options: DecideOptions<Event, State>,
): Promise<Handled<Event, State>> {
  const expected = options.expected;
  if (expected?.known) {
    const onKnown = await decideOnKnown(deps, streamId, decider, command, expected.known, options);
    if (onKnown) return onKnown;
  }
  const retries = expected?.retry?.onVersionConflict ?? 0;
  // a retry after a conflict reads only the events after the revision the last attempt read
  let lastRead: Known<State> | undefined;
  const read = async (): Promise<Known<State>> => {
    lastRead = lastRead
      ? await catchUpAndFold(deps.store, streamId, decider, lastRead)
      : await readAndFold(deps.store, streamId, decider);
    return lastRead;
  };
  return retryOnConflict(() => decideOnce(deps, streamId, decider, command, options, read), { retries, backoff: jitter });
}

/**
 * The command decided on the state the caller holds and appended at its revision; null when that
 * proves nothing (a conflict, a refusal, nothing decided): the caller then decides on the stream.
 */
async function decideOnKnown<Command, Event extends DomainEvent<string, object>, State>(
  deps: { store: EventStore; ids: Ids },
  streamId: string,
  decider: Decider<Command, Event, State>,
  command: CommandOf<Command, State>,
  known: Known<State>,
  options: DecideOptions<Event, State>,
): Promise<Handled<Event, State> | null> {
  const { state } = known;
  let events: Event[];
  try {
    events = decider.decide(await commandFor(command, state), state);
  } catch {
    return null; // perhaps only on an old state: the stream decides
  }
  if (events.length === 0) return null;
  try {
    return await appendDecided(deps, streamId, decider, events, known, options);
  } catch (error) {
    if (error instanceof WrongExpectedRevision) return null;
    throw error;
  }
}

async function decideOnce<Command, Event extends DomainEvent<string, object>, State>(
  deps: { store: EventStore; ids: Ids },
  streamId: string,
  decider: Decider<Command, Event, State>,
  command: CommandOf<Command, State>,
  options: DecideOptions<Event, State>,
  readStream: () => Promise<Known<State>>,
): Promise<Handled<Event, State>> {
  const expected = options.expected;
  // a stream named by an id generated for this command cannot exist yet: skip the read, and let
  // the no_stream append prove it
  const read: Known<State> = expected?.newStream ? { state: decider.initialState, revision: -1 } : await readStream();
  const current = read.revision;
  const named = expected?.ifMatch ?? expected?.atRevision;
  const actual = current < 0 ? 'no_stream' : current;
  const stale = named === undefined || named === current ? null
    : expected?.ifMatch !== undefined ? new VersionMismatch(streamId, expected.ifMatch, actual) : new WrongExpectedRevision(streamId, named, actual);
  const state = read.state;
  const events = await decideBeforeStale(stale, current >= 0, async () => decider.decide(await commandFor(command, state), state));
  if (events.length === 0) return { events, version: current, position: null, state };
  return appendDecided(deps, streamId, decider, events, read, options);
}

/** Decided events appended at the revision they were decided on (beforeAppend first), and what they make of that state. */
async function appendDecided<Command, Event extends DomainEvent<string, object>, State>(
  deps: { store: EventStore; ids: Ids },
  streamId: string,
  decider: Decider<Command, Event, State>,
  events: Event[],
  decidedOn: Known<State>,
  options: Pick<DecideOptions<Event, State>, 'metadata' | 'beforeAppend' | 'expected'>,
): Promise<Handled<Event, State>> {
  await options.beforeAppend?.(events);
  // with If-Match the append names the client's version (decidedOn is at it): losing the race is the client's 412
  const at: WriteAt = options.expected?.ifMatch !== undefined ? { ifMatch: decidedOn.revision } : { revision: decidedOn.revision };
  const appended = await appendAt(deps.store, { streamId, events: toNewEvents(deps, events, options.metadata), at });
  const state = events.reduce(decider.evolve, decidedOn.state);
  await keepSnapshot(deps.store, streamId, decider, { from: decidedOn.revision, to: appended.nextRevision, state });
  return { events, version: appended.nextRevision, position: appended.position, state };
}
