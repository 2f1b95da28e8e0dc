import type { EntityManager, MigrationInterface } from 'typeorm';
import type { Recorded, RecordedEvent } from '../eventstore/port.ts';
import { domainEvent } from '../handling/read-and-fold.ts';

/** What a follower may name as its events: a union of contracts from `events/`. */
export type FollowedEvent = { type: string; data: object };

/** Any event, untyped: how runners (and tests) hold their followers. */
export type AnyEvent = Pick<RecordedEvent, 'type' | 'data'>;

/**
 * A read model: the event types it reads, the tables a rebuild empties, and how a batch of events
 * changes its rows. `apply` gets only the events it handles, in order, inside the transaction
 * that also moves its checkpoint, so a crash never loses or doubles an update.
 *
 * `E` is the union of the contracts it handles (`Projector<CustomerEvent>`): its events come
 * typed by it (`Recorded<E>`, narrowed by `type`), at their current versions, since the store
 * upcasts every read; `handles` can name only those types.
 */
export interface Projector<E extends FollowedEvent = AnyEvent> {
  name: string;
  handles: readonly E['type'][];
  tables: readonly string[];
  migrations: readonly (new () => MigrationInterface)[];
  /**
   * false: apply and newRows never look at `event.metadata`, so a catch-up (a rebuild) may read
   * its events without it (empty, `{}`): it is a quarter of the bytes the client decodes in an
   * invoice rebuild. By default events come with their metadata.
   */
  readsMetadata?: false;
  /**
   * `kept`, in a catch-up (a rebuild) only: what apply returned for the batch just before, once
   * that batch committed and nothing else moved the checkpoint since; undefined otherwise. A
   * projector may keep there the rows it wrote, so the next batch need not read them back. apply
   * may change it in place and return it: the runner hands on only what a committed batch
   * returned, and after a batch that failed gives the next none.
   */
  apply(events: readonly Recorded<E>[], tx: EntityManager, kept?: unknown): Promise<unknown>;
  /**
   * The batch as one set-based write (new rows, and for the register also changes it folds into
   * the same INSERT … ON CONFLICT), or null when it needs more than that. Such a batch is written
   * in ONE statement together with the checkpoint move, instead of `apply` in a transaction: one
   * round trip instead of four, on the path every create waits for.
   */
  newRows?(events: readonly Recorded<E>[]): NewRows | null;
}

/**
 * Rows a projector inserts, and its INSERT: `insert(source)` reads them from
 * `jsonb_to_recordset(source)`, where `source` is a SQL expression the runner gives for `rows` as
 * JSON (null, hence no rows, when the checkpoint was not where the runner left it).
 */
export interface NewRows {
  rows: readonly object[];
  insert(source: string): string;
}

/**
 * A projector of the contracts `E`, as its runner holds it. The one cast of the read side, and a
 * sound one: the runner gives `apply` and `newRows` only events of the types in `handles`, and the
 * store gives each at its current version (upcasting.ts), which is the shape `E` declares.
 */
export function defineProjector<E extends FollowedEvent>(projector: Projector<E>): Projector {
  return projector as unknown as Projector;
}

/**
 * Splits a batch into runs of consecutive events of one type, so a projector can write each run
 * with one set-based statement (a rebuild then costs a few statements per thousand events, not
 * one per event) while the order between runs is kept. `kindOf` names the run a type joins (e.g.
 * several types one statement writes alike); by default each type is its own.
 */
export function runsOfType<Event extends { type: string }>(events: readonly Event[], kindOf: (type: Event['type']) => string = (type) => type): { type: string; events: Event[] }[] {
  const runs: { type: string; events: Event[] }[] = [];
  for (const event of events) {
    const last = runs[runs.length - 1];
    const kind = kindOf(event.type);
    if (last && last.type === kind) last.events.push(event);
    else runs.push({ type: kind, events: [event] });
  }
  return runs;
}

/** The typed data of a stored event. Events are checked by their deciders before they are written. */
export function eventData<E extends { type: string; data: object }>(event: RecordedEvent): E['data'] {
  return domainEvent<E>(event).data;
}
