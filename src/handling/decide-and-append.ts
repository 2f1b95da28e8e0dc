import { StandingRefusal } from '../../commands/shared/preconditions.ts';
import type { Decider, DomainEvent } from '../../commands/shared/decider.ts';
import { WrongExpectedRevision, type EventMetadata, type EventStore, type NewEvent, type Position } from '../eventstore/port.ts';
import type { Ids } from '../ports/ids.ts';
import { catchUpAndFold, keepSnapshot, readAndFold, type Upcast } from './read-and-fold.ts';

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

export interface DecideOptions<Event, State = unknown> {
  metadata: EventMetadata;
  /**
   * The state the caller holds (it read the stream, or its own last command left it so): decided
   * on without reading the stream again. Only the append proves it current (it is made at that
   * revision), so a conflict, a refusal or a decision of nothing on it is decided again on the
   * stream as read. Not with If-Match, which is about the current version.
   */
  known?: Known<State>;
  /** the client's If-Match: a conflict is then a 412, never retried */
  expectedVersion?: number;
  /** the stream is named by an id made for this command: nothing to read, and no retry */
  newStream?: boolean;
  /**
   * How many times a command without If-Match is decided again on the newer state when another
   * write lands between the read and the append (0: the conflict is thrown). For streams several
   * writers share, where a decision is idempotent so a repeat decides nothing.
   */
  retryOnConflict?: number;
  /**
   * Runs once the decider has accepted and before the append; a throw refuses the command with
   * nothing appended (a quota is taken only for a command that will be written). It must be
   * idempotent: a conflict after it may decide and run it again.
   */
  beforeAppend?: (events: Event[]) => Promise<void>;
  upcast?: Upcast;
}

const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));

/**
 * Read the stream, fold it, decide, append at the revision that was read. When the client sent
 * If-Match, its version must equal the current one (else WrongExpectedRevision → 412); a write
 * racing in between the read and the append fails the same way instead of being overwritten, or,
 * with `retryOnConflict` and no If-Match, is decided again on the newer state.
 */
export async function decideAndAppend<Command, Event extends DomainEvent<string, object>, State>(
  deps: { store: EventStore; ids: Ids },
  streamId: string,
  decider: Decider<Command, Event, State>,
  command: CommandOf<Command, State>,
  options: DecideOptions<Event, State>,
): Promise<Handled<Event, State>> {
  if (options.known && (options.expectedVersion !== undefined || options.newStream)) throw new Error(`known state goes without If-Match and a new stream (${streamId})`);
  if (options.known) {
    const onKnown = await decideOnKnown(deps, streamId, decider, command, { ...options, known: options.known });
    if (onKnown) return onKnown;
  }
  const retries = options.expectedVersion === undefined && !options.newStream ? (options.retryOnConflict ?? 0) : 0;
  // a retry after a conflict reads only the events after the revision the last attempt read
  let lastRead: Known<State> | undefined;
  const read = async (): Promise<Known<State>> => {
    lastRead = lastRead
      ? await catchUpAndFold(deps.store, streamId, decider, lastRead, options.upcast)
      : await readAndFold(deps.store, streamId, decider, options.upcast);
    return lastRead;
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return await decideOnce(deps, streamId, decider, command, options, read);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision) || attempt >= retries) throw error;
      await pause(attempt);
    }
  }
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
  options: DecideOptions<Event, State> & { known: Known<State> },
): Promise<Handled<Event, State> | null> {
  const { state } = options.known;
  let events: Event[];
  try {
    events = decider.decide(await commandFor(command, state), state);
  } catch {
    return null; // perhaps only on an old state: the stream decides
  }
  if (events.length === 0) return null;
  try {
    return await appendDecided(deps, streamId, decider, events, options.known, options);
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
  // a stream named by an id generated for this command cannot exist yet: skip the read, and let
  // the no_stream append prove it
  const read: Known<State> = options.newStream ? { state: decider.initialState, revision: -1 } : await readStream();
  const current = read.revision;
  const stale = options.expectedVersion !== undefined && options.expectedVersion !== current;
  const refuseStale = () => {
    throw new WrongExpectedRevision(streamId, options.expectedVersion ?? current, current < 0 ? 'no_stream' : current);
  };
  // A stale If-Match is a 412 whatever the decider would say, but for a standing refusal
  // (commands/shared/preconditions.ts): what does not exist or the caller may not see is a 404
  // first, so a version never shows that another company's stream exists; what its state refuses
  // whatever the version (a locked credit note, a status) is that refusal first (RFC 9110 §13.2.1).
  const state = read.state;
  let events: Event[];
  try {
    events = decider.decide(await commandFor(command, state), state);
  } catch (error) {
    if (stale && current >= 0 && !(error instanceof StandingRefusal)) refuseStale();
    throw error;
  }
  if (stale) refuseStale();
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
  options: Pick<DecideOptions<Event, State>, 'metadata' | 'beforeAppend'>,
): Promise<Handled<Event, State>> {
  await options.beforeAppend?.(events);
  const appended = await deps.store.append(streamId, toNewEvents(deps, events, options.metadata), decidedOn.revision < 0 ? 'no_stream' : decidedOn.revision);
  const state = events.reduce(decider.evolve, decidedOn.state);
  await keepSnapshot(deps.store, streamId, decider, { from: decidedOn.revision, to: appended.nextRevision, state });
  return { events, version: appended.nextRevision, position: appended.position, state };
}
