import type { Decider, DomainEvent } from '../../commands/shared/decider.ts';
import { fold } from '../../commands/shared/decider.ts';
import type { EventStore, RecordedEvent } from '../eventstore/port.ts';

/**
 * Turns a stored event into the shape its decider folds today. Identity while every event type
 * is still at its first version; an event whose payload changes gets its upgrade here, in one
 * place, so no decider or projector ever sees an old shape.
 */
export type Upcast = (event: RecordedEvent) => RecordedEvent;

export const identityUpcast: Upcast = (event) => event;

/**
 * The domain event a stored one stands for, typed by the union its reader names. The one place
 * raw data becomes a domain event: events are checked by their deciders before they are written.
 */
export function domainEvent<Event extends DomainEvent<string, object>>(recorded: Pick<RecordedEvent, 'type' | 'data'>): Event {
  return { type: recorded.type, data: recorded.data } as unknown as Event;
}

/** The state a decider folds from stored events (already read), through the upcast. */
export function foldRecorded<Event extends DomainEvent<string, object>, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  recorded: readonly RecordedEvent[],
  upcast: Upcast = identityUpcast,
): State {
  return fold(decider, recorded.map((e) => domainEvent<Event>(upcast(e))));
}

export interface Folded<State> {
  state: State;
  /** the stream's last revision; -1 when it does not exist */
  revision: number;
  /** the events read, in revision order */
  events: RecordedEvent[];
}

/** Reads a stream and folds it with its decider: what every reader of a stream's state uses. */
export async function readAndFold<Event extends DomainEvent<string, object>, State>(
  store: Pick<EventStore, 'readStream'>,
  streamId: string,
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  upcast: Upcast = identityUpcast,
): Promise<Folded<State>> {
  const events = await store.readStream(streamId);
  return { state: foldRecorded(decider, events, upcast), revision: events[events.length - 1]?.revision ?? -1, events };
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
  upcast: Upcast = identityUpcast,
): Promise<Folded<State>> {
  const events = await store.readStream(streamId, held.revision + 1);
  const state = events.reduce((folded, recorded) => decider.evolve(folded, domainEvent<Event>(upcast(recorded))), held.state);
  return { state, revision: events[events.length - 1]?.revision ?? held.revision, events };
}
