import type { Decider, DomainEvent } from '../../../commands/shared/decider.ts';
import type { EventMetadata, EventStore } from '../eventstore/port.ts';
import { appendAt } from './append.ts';
import type { Ids } from '../ports/ids.ts';
import { toNewEvents } from './command-handler.ts';
import { catchUpAndFold, readAndFold } from './read-and-fold.ts';
import { retryOnConflict } from './retry.ts';

interface Known<State> {
  state: State;
  revision: number;
}

interface Waiting<Command, Event> {
  command: Command;
  metadata: EventMetadata;
  resolve(events: Event[]): void;
  reject(error: unknown): void;
}

/** Streams whose state is kept between groups; beyond it the oldest are read again when next used. */
const MAX_KNOWN = 10_000;

/**
 * Commands on a hot stream (an invoice series, an organisation's monthly usage) that every
 * request of a workspace or organisation writes to. Commands waiting for one stream are decided
 * one after another on the state this process last wrote, and appended together in one append
 * (group commit): no read per command and no optimistic retries among this process's own
 * requests. The append still carries the expected revision, so another instance's append in
 * between is noticed (WrongExpectedRevision): the events after the revision held are read and
 * folded onto the state held (not the whole stream: a busy month holds tens of thousands), and
 * the group decided again. A command the decider refuses is rejected alone; the rest of its group goes on.
 */
export class GroupCommit<Command, Event extends DomainEvent<string, object>, State> {
  private readonly known = new Map<string, Known<State>>();
  private readonly waiting = new Map<string, Waiting<Command, Event>[]>();
  private readonly busy = new Set<string>();

  constructor(
    private readonly deps: { store: EventStore; ids: Ids },
    private readonly decider: Decider<Command, Event, State>,
  ) {}

  /** The events decided for this command once they are appended ([] when it decided none). */
  submit(stream: string, command: Command, metadata: EventMetadata): Promise<Event[]> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(stream);
      if (queue) queue.push({ command, metadata, resolve, reject });
      else this.waiting.set(stream, [{ command, metadata, resolve, reject }]);
      if (!this.busy.has(stream)) void this.drain(stream);
    });
  }

  private async drain(stream: string): Promise<void> {
    this.busy.add(stream);
    try {
      for (let group = this.take(stream); group.length > 0; group = this.take(stream)) {
        try {
          await this.appendGroup(stream, group);
        } catch (error) {
          group.forEach((w) => w.reject(error));
        }
      }
    } finally {
      this.busy.delete(stream);
    }
  }

  private take(stream: string): Waiting<Command, Event>[] {
    const group = this.waiting.get(stream) ?? [];
    this.waiting.delete(stream);
    return group;
  }

  private async appendGroup(stream: string, group: Waiting<Command, Event>[]): Promise<void> {
    let known = this.known.get(stream) ?? (await this.read(stream));
    await retryOnConflict(async (attempt) => {
      // another instance wrote in between: only its events are read, not the month again
      if (attempt > 0) known = await this.catchUp(stream, known);
      let state = known.state;
      const decided: { waiting: Waiting<Command, Event>; events: Event[] }[] = [];
      const refused: { waiting: Waiting<Command, Event>; error: unknown }[] = [];
      for (const waiting of group) {
        try {
          const events = this.decider.decide(waiting.command, state);
          state = events.reduce(this.decider.evolve, state);
          decided.push({ waiting, events });
        } catch (error) {
          refused.push({ waiting, error });
        }
      }
      const toAppend = decided.flatMap(({ waiting, events }) => toNewEvents(this.deps, events, waiting.metadata));
      try {
        if (toAppend.length > 0) {
          const appended = await appendAt(this.deps.store, { streamId: stream, events: toAppend, at: { revision: known.revision } });
          this.remember(stream, { state, revision: appended.nextRevision });
        }
      } catch (error) {
        this.known.delete(stream);
        throw error;
      }
      decided.forEach(({ waiting, events }) => waiting.resolve(events));
      refused.forEach(({ waiting, error }) => waiting.reject(error));
    }, { retries: 50 });
  }

  private remember(stream: string, known: Known<State>): void {
    this.known.delete(stream); // re-inserted last: the map's order is least recently written first
    this.known.set(stream, known);
    if (this.known.size > MAX_KNOWN) this.known.delete(this.known.keys().next().value as string);
  }

  private async read(stream: string): Promise<Known<State>> {
    const { state, revision } = await readAndFold(this.deps.store, stream, this.decider);
    return { state, revision };
  }

  private async catchUp(stream: string, known: Known<State>): Promise<Known<State>> {
    const { state, revision } = await catchUpAndFold(this.deps.store, stream, this.decider, known);
    return { state, revision };
  }
}
