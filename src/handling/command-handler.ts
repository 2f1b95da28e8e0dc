import type { Decider, DomainEvent } from '../../commands/shared/decider.ts';
import { fold } from '../../commands/shared/decider.ts';
import { WrongExpectedRevision, type EventMetadata, type EventStore, type NewEvent, type Position } from '../eventstore/port.ts';
import type { Ids } from '../ports/ids.ts';

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

/**
 * Read the stream, fold it, decide, append at the revision that was read (`newStream`: the
 * stream is named by an id made for this command, so there is nothing to read). When the client sent
 * If-Match, its version must equal the current one (else WrongExpectedRevision → 412); a write
 * racing in between the read and the append fails the same way instead of being overwritten.
 */
export async function handleCommand<Command, Event extends DomainEvent<string, object>, State>(
  deps: { store: EventStore; ids: Ids },
  streamId: string,
  decider: Decider<Command, Event, State>,
  command: Command,
  options: {
    metadata: EventMetadata;
    expectedVersion?: number;
    newStream?: boolean;
    /**
     * Runs once the decider has accepted and before the append; a throw refuses the command with
     * nothing appended (a quota is taken only for a command that will be written). It must be
     * idempotent: a conflict after it makes the caller try again.
     */
    beforeAppend?: (events: Event[]) => Promise<void>;
  },
): Promise<Handled<Event, State>> {
  // a stream named by an id generated for this command cannot exist yet: skip the read, and let
  // the no_stream append prove it
  const history = options.newStream ? [] : await deps.store.readStream(streamId);
  const current = history.length > 0 ? (history[history.length - 1]?.revision ?? -1) : -1;
  const stale = options.expectedVersion !== undefined && options.expectedVersion !== current;
  const refuseStale = () => {
    throw new WrongExpectedRevision(streamId, options.expectedVersion ?? current, current < 0 ? 'no_stream' : current);
  };
  // An existing stream checks If-Match before deciding; a missing one lets the decider answer
  // first, so a client gets 404 for what does not exist rather than 412.
  if (stale && current >= 0) refuseStale();
  const past = history.map((e) => ({ type: e.type, data: e.data }) as unknown as Event);
  const state = fold(decider, past);
  const events = decider.decide(command, state);
  if (stale) refuseStale();
  if (events.length === 0) return { events, version: current, position: null, state };
  await options.beforeAppend?.(events);
  const appended = await deps.store.append(streamId, toNewEvents(deps, events, options.metadata), current < 0 ? 'no_stream' : current);
  return { events, version: appended.nextRevision, position: appended.position, state: events.reduce(decider.evolve, state) };
}
