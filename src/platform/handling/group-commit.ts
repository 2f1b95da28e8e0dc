import type { Decider, DomainEvent } from '../../../commands/shared/decider.ts';
import { WrongExpectedRevision, type EventMetadata, type EventStore, type StreamsAppendResult } from '../eventstore/port.ts';
import { appendAll, appendAt, type Write } from './append.ts';
import type { Ids } from '../ports/ids.ts';
import { toNewEvents } from './command-handler.ts';
import { catchUpAndFold, readAndFold } from './read-and-fold.ts';

interface Known<State> {
  state: State;
  revision: number;
}

/**
 * Writes that go in the same append as a command's events on the hot stream, all or nothing (on
 * Postgres and PGlite): a document with the number it takes from its series, so that only a
 * document that is written takes a number.
 */
export interface Rider<Event, T> {
  /** The writes (one or more, never on the hot stream) for the events decided there; throwing refuses the command, and nothing of it is written. */
  decide(events: Event[]): { writes: Write[]; done(appended: StreamsAppendResult): T };
  /**
   * A race lost on one of the rider's streams (the rest of the group is written without it): true
   * to decide its command again (the rider learnt why, e.g. the number it took is someone's
   * already), false to refuse it with that conflict.
   */
  lost(error: WrongExpectedRevision): boolean;
}

interface Waiting<Command, Event> {
  command: () => Command;
  metadata: EventMetadata;
  rider: Rider<Event, unknown> | null;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

interface Decided<Command, Event> {
  waiting: Waiting<Command, Event>;
  events: Event[];
  ride: ReturnType<Rider<Event, unknown>['decide']> | null;
}

/** Streams whose state is kept between groups; beyond it the oldest are read again when next used. */
const MAX_KNOWN = 10_000;
/** Appends one group may try: each lost race removes a command, teaches a rider, or catches up on another instance's append. */
const MAX_ROUNDS = 200;

/**
 * Commands on a hot stream (an invoice series, an organisation's monthly usage) that every
 * request of a workspace or organisation writes to. Commands waiting for one stream are decided
 * one after another on the state this process last wrote, and appended together in one append
 * (group commit): no read per command and no optimistic retries among this process's own
 * requests. The append still carries the expected revision, so another instance's append in
 * between is noticed (WrongExpectedRevision): the events after the revision held are read and
 * folded onto the state held (not the whole stream: a busy month holds tens of thousands), and
 * the group decided again. A command the decider or its rider refuses is rejected alone; the rest
 * of its group goes on. A command with a rider (submitWith) is written in the same append as the
 * rider's writes; a race lost on one of those leaves its command out (or decides it again, as the
 * rider says) and the rest of the group is decided again and written without it. Two riders
 * writing one stream never share an append: the second waits for the next. A group append that
 * fails for another reason is tried again one command at a time, so each gets its own outcome.
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
    return this.enqueue<Event[]>(stream, () => command, metadata, null);
  }

  /**
   * The command's events appended together with its rider's writes; the rider's `done` gives the
   * answer. `command` is asked for again each time the command is decided (a rider that lost may
   * have changed what it asks).
   */
  submitWith<T>(stream: string, command: () => Command, metadata: EventMetadata, rider: Rider<Event, T>): Promise<T> {
    return this.enqueue<T>(stream, command, metadata, rider);
  }

  private enqueue<T>(stream: string, command: () => Command, metadata: EventMetadata, rider: Rider<Event, T> | null): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting<Command, Event> = { command, metadata, rider, resolve: resolve as (result: unknown) => void, reject };
      const queue = this.waiting.get(stream);
      if (queue) queue.push(entry);
      else this.waiting.set(stream, [entry]);
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
          this.known.delete(stream);
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

  /** Settles every command of the group: each is resolved or rejected exactly once (a rejection after settling is a no-op). */
  private async appendGroup(stream: string, group: Waiting<Command, Event>[]): Promise<void> {
    let known = this.known.get(stream) ?? (await this.read(stream));
    let pending = group;
    // after a shared append failed for another reason than a lost race, each command is appended
    // alone, so one bad command (or its rider) fails only itself
    let alone = false;
    for (let round = 0; pending.length > 0; round++) {
      const { decided, next } = this.decide(stream, known.state, alone ? pending.slice(0, 1) : pending);
      pending = alone ? [...next, ...pending.slice(1)] : next;
      if (decided.length === 0) continue;
      const state = decided.reduce((s, d) => d.events.reduce(this.decider.evolve, s), known.state);
      let appended: Awaited<ReturnType<typeof this.append>>;
      try {
        appended = await this.append(stream, known, decided);
      } catch (error) {
        if (round + 1 >= MAX_ROUNDS) throw error;
        if (!(error instanceof WrongExpectedRevision)) {
          // whether it was written is not known: the stream is read again before anything is decided on it
          this.known.delete(stream);
          known = await this.read(stream);
          if (decided.length === 1) decided[0]?.waiting.reject(error);
          else pending = [...decided.map((d) => d.waiting), ...pending];
          alone = true;
          continue;
        }
        if (error.streamId === stream) {
          // another instance wrote in between: only its events are read, not the stream again
          known = await this.catchUp(stream, known);
        } else {
          const loser = decided.find((d) => d.ride?.writes.some((w) => w.streamId === error.streamId));
          if (!loser?.waiting.rider) throw error;
          if (!loser.waiting.rider.lost(error)) {
            loser.waiting.reject(error);
            decided.splice(decided.indexOf(loser), 1);
          }
        }
        pending = [...decided.map((d) => d.waiting), ...pending];
        continue;
      }
      if (appended) known = this.remember(stream, { state, revision: appended.hot });
      // written: each answer is its own (a rider whose answer fails fails alone; nothing is written again)
      for (const d of decided) {
        try {
          d.waiting.resolve(d.ride && appended?.all ? d.ride.done(appended.all) : d.events);
        } catch (error) {
          d.waiting.reject(error);
        }
      }
    }
  }

  /** Decides the pending commands in turn; `next` holds those whose rider writes a stream an earlier one in this append writes. */
  private decide(stream: string, from: State, pending: Waiting<Command, Event>[]): { decided: Decided<Command, Event>[]; next: Waiting<Command, Event>[] } {
    let state = from;
    const decided: Decided<Command, Event>[] = [];
    const next: Waiting<Command, Event>[] = [];
    const written = new Set([stream]);
    for (const waiting of pending) {
      try {
        const events = this.decider.decide(waiting.command(), state);
        const ride = waiting.rider?.decide(events) ?? null;
        if (ride && (ride.writes.length === 0 || ride.writes.some((w) => w.streamId === stream))) throw new Error(`a rider on ${stream} must write other streams`);
        if (ride?.writes.some((w) => written.has(w.streamId))) {
          next.push(waiting);
          continue;
        }
        ride?.writes.forEach((w) => written.add(w.streamId));
        state = events.reduce(this.decider.evolve, state);
        decided.push({ waiting, events, ride });
      } catch (error) {
        waiting.reject(error);
      }
    }
    return { decided, next };
  }

  /** One append of the hot stream's events and the riders' writes; null when there was nothing to write. */
  private async append(stream: string, known: Known<State>, decided: Decided<Command, Event>[]): Promise<{ hot: number; all: StreamsAppendResult | null } | null> {
    const events = decided.flatMap(({ waiting, events }) => toNewEvents(this.deps, events, waiting.metadata));
    const riders = decided.flatMap((d) => d.ride?.writes ?? []);
    if (riders.length === 0) {
      if (events.length === 0) return null;
      const appended = await appendAt(this.deps.store, { streamId: stream, events, at: { revision: known.revision } });
      return { hot: appended.nextRevision, all: null };
    }
    // the hot stream first: on EventStoreDB, which writes in order and stops at the first conflict,
    // a rider's conflict then leaves at worst a reservation without its document, never a document
    // whose reservation another instance could hand out again
    const hot: Write[] = events.length > 0 ? [{ streamId: stream, events, at: { revision: known.revision } }] : [];
    const all = await appendAll(this.deps.store, [...hot, ...riders]);
    return { hot: events.length > 0 ? (all.streams[0]?.nextRevision ?? known.revision) : known.revision, all };
  }

  private remember(stream: string, known: Known<State>): Known<State> {
    this.known.delete(stream); // re-inserted last: the map's order is least recently written first
    this.known.set(stream, known);
    if (this.known.size > MAX_KNOWN) this.known.delete(this.known.keys().next().value as string);
    return known;
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
