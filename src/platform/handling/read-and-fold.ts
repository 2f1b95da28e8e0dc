import type { Decider, DomainEvent } from '../../../commands/shared/decider.ts';
import { fold } from '../../../commands/shared/decider.ts';
import type { EventStore, RecordedEvent } from '../eventstore/port.ts';

/**
 * The domain event a stored one stands for, typed by the union its reader names. The one place
 * raw data becomes a domain event: events are checked by their deciders before they are written.
 */
export function domainEvent<Event extends DomainEvent<string, object>>(recorded: Pick<RecordedEvent, 'type' | 'data'>): Event {
  return { type: recorded.type, data: recorded.data } as unknown as Event;
}

/** The state a decider folds from stored events (already read: the store gave them at their current versions). */
export function foldRecorded<Event extends DomainEvent<string, object>, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  recorded: readonly RecordedEvent[],
): State {
  return fold(decider, recorded.map((e) => domainEvent<Event>(e)));
}

export interface Folded<State> {
  state: State;
  /** the stream's last revision; -1 when it does not exist */
  revision: number;
  /** the events read, in revision order */
  events: RecordedEvent[];
}

/**
 * Reads a stream and folds it with its decider: what every reader of a stream's state uses. For a
 * decider that asks for snapshots, from the stream's latest snapshot on (when the store keeps
 * them): `events` are then only those after it.
 */
export async function readAndFold<Event extends DomainEvent<string, object>, State>(
  store: Pick<EventStore, 'readStream' | 'snapshots'>,
  streamId: string,
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState' | 'snapshot'>,
): Promise<Folded<State>> {
  const snapshot = decider.snapshot && store.snapshots ? await store.snapshots.load(streamId, decider.snapshot.version) : null;
  if (snapshot) return catchUpAndFold(store, streamId, decider, { state: snapshot.state as State, revision: snapshot.revision });
  const events = await store.readStream(streamId);
  const folded = { state: foldRecorded(decider, events), revision: events[events.length - 1]?.revision ?? -1, events };
  // a long stream read whole (written before its decider asked for snapshots): the next read starts here
  if (decider.snapshot && events.length >= decider.snapshot.every) await keepSnapshot(store, streamId, decider, { from: -1, to: folded.revision, state: folded.state });
  return folded;
}

/**
 * After an append that took the stream from revision `from` to `to`: keeps the state as the
 * stream's snapshot when its decider asks for them and the append crossed a multiple of `every`.
 * Best effort: a snapshot that cannot be kept costs only a longer read, so its failure never
 * fails the command that was written.
 */
export async function keepSnapshot<State>(
  store: Pick<EventStore, 'snapshots'>,
  streamId: string,
  decider: Pick<Decider<unknown, DomainEvent<string, object>, State>, 'snapshot'>,
  appended: { from: number; to: number; state: State },
): Promise<void> {
  const policy = decider.snapshot;
  if (!policy || !store.snapshots) return;
  if (Math.floor((appended.to + 1) / policy.every) === Math.floor((appended.from + 1) / policy.every)) return;
  await store.snapshots.save(streamId, policy.version, { revision: appended.to, state: appended.state }).catch(() => undefined);
}

/**
 * A held state brought up to date: the events after `held.revision`, folded onto it. What a
 * holder of a long stream's state (a month's usage, an invoice series) reads when another
 * instance wrote in between: the new events, not the whole stream again.
 */
export async function catchUpAndFold<Event extends DomainEvent<string, object>, State>(
  store: Pick<EventStore, 'readStream'>,
  streamId: string,
  decider: Pick<Decider<unknown, Event, State>, 'evolve'>,
  held: { state: State; revision: number },
): Promise<Folded<State>> {
  const events = await store.readStream(streamId, held.revision + 1);
  const state = events.reduce((folded, recorded) => decider.evolve(folded, domainEvent<Event>(recorded)), held.state);
  return { state, revision: events[events.length - 1]?.revision ?? held.revision, events };
}
