import type { DomainEvent } from '../../events/event.ts';

/** The event shape is the contract's (events/event.ts); deciders name it from here. */
export type { DomainEvent };

/**
 * A stream family's rules as two pure functions (Emmett's shape): `decide` turns a command and the
 * current state into new events or a DomainError; `evolve` folds an event into state. Ids, clock
 * and actor come in with the command, so both are deterministic and tested without I/O.
 */
export interface Decider<Command, Event extends DomainEvent<string, object>, State> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState: State;
  /**
   * For a family whose streams can grow without bound (a client's failed sign-ins, which anybody
   * who knows its id can add): the store keeps the state every `every` events, and a read folds on
   * from there. The state must be plain JSON (it round-trips through JSON.stringify and parse).
   * Change `version` whenever evolve or the state's shape changes: snapshots of another version
   * are not used.
   */
  snapshot?: { version: number; every: number };
}

export function fold<Event extends DomainEvent<string, object>, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState);
}
