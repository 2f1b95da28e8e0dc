import type { Decider, DomainEvent } from '../../../commands/shared/decider.ts';
import type { EventStore } from '../eventstore/port.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import {
  commandFor, decideAndAppend, ifMatchOr, toNewEvents,
  type AsRead, type AtRevision, type CommandOf, type DecideOptions, type Expected, type Handled, type IfMatch, type Known, type NewStream, type OnKnown, type Retry,
} from './decide-and-append.ts';
import { claimForNewHolder, type UniqueClaim } from './unique-claim.ts';

export { ifMatchOr, toNewEvents, type AsRead, type AtRevision, type CommandOf, type Expected, type Handled, type IfMatch, type Known, type NewStream, type OnKnown, type Retry };
export type { UniqueClaim };

/**
 * A command's options: its metadata, `beforeAppend`, and the revision it expects (`expected`: one
 * of If-Match, a new stream, as read with a bounded retry, on a state held, at a revision read
 * beside it). `claim` goes only with a new stream: any other mix does not type-check.
 */
export type CommandOptions<Event, State = unknown> = Omit<DecideOptions<Event, State>, 'expected'> & (
  | { expected?: Exclude<Expected<State>, NewStream>; claim?: never }
  | {
    expected: NewStream;
    /**
     * A value the new stream must hold uniquely (an invoice number, a VAT ID): claimed in
     * `claim-<scope>-<value>` together with the new stream, in one append where the store can. A
     * value another holder has refuses with the claim decider's conflict and writes nothing.
     */
    claim?: UniqueClaim;
  }
);

/**
 * The one way a command is written: read and fold the stream (readAndFold), decide, append at the
 * revision its `expected` names (see decideAndAppend for If-Match, conflicts and the bounded
 * retry), and with `claim` start the new stream together with its unique value's claim.
 */
export async function handleCommand<Command, Event extends DomainEvent<string, object>, State>(
  deps: { store: EventStore; ids: Ids; clock?: Clock },
  streamId: string,
  decider: Decider<Command, Event, State>,
  command: CommandOf<Command, State>,
  options: CommandOptions<Event, State>,
): Promise<Handled<Event, State>> {
  const { claim } = options;
  if (!claim) return decideAndAppend(deps, streamId, decider, command, options);
  if (!deps.clock) throw new Error(`a claim needs a clock (${streamId})`);
  const state = decider.initialState;
  const events = decider.decide(await commandFor(command, state), state);
  if (events.length === 0) return { events, version: -1, position: null, state };
  await options.beforeAppend?.(events);
  const holder = { streamId, events: toNewEvents(deps, events, options.metadata) };
  const appended = await claimForNewHolder({ ...deps, clock: deps.clock }, claim, holder, options.metadata);
  return { events, version: appended.nextRevision, position: appended.position, state: events.reduce(decider.evolve, state) };
}
