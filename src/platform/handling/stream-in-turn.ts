import type { Decider, DomainEvent } from '../../../commands/shared/decider.ts';
import { handleCommand, type CommandOf, type Handled, type Retry } from './command-handler.ts';
import type { DecideOptions, Known } from './decide-and-append.ts';
import type { Folded } from './read-and-fold.ts';

/**
 * Commands one after another on one stream by one holder (a reaction that read the stream, then
 * records its steps): each is decided on the state the previous one left (OnKnown), so the stream
 * is read once rather than before every step. Whatever another writer appended in between shows
 * as a conflict, and that step is decided again on the stream as read (`retry` times more).
 */
export function streamInTurn<Command, Event extends DomainEvent<string, object>, State>(
  deps: Parameters<typeof handleCommand>[0],
  streamId: string,
  decider: Decider<Command, Event, State>,
  read: Pick<Folded<State>, 'state' | 'revision'>,
  options: Omit<DecideOptions<Event, State>, 'expected'> & { retry?: Retry },
): (command: CommandOf<Command, State>) => Promise<Handled<Event, State>> {
  const { retry, ...rest } = options;
  let known: Known<State> = { state: read.state, revision: read.revision };
  return async (command) => {
    const handled = await handleCommand(deps, streamId, decider, command, { ...rest, expected: retry ? { known, retry } : { known } });
    known = { state: handled.state, revision: handled.version };
    return handled;
  };
}
