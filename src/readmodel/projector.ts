import type { EntityManager, MigrationInterface } from 'typeorm';
import type { RecordedEvent } from '../eventstore/port.ts';

/**
 * A read model: the event types it reads, the tables a rebuild empties, and how a batch of events
 * changes its rows. `apply` gets only the events it handles, in order, inside the transaction
 * that also moves its checkpoint, so a crash never loses or doubles an update.
 */
export interface Projector {
  name: string;
  handles: readonly string[];
  tables: readonly string[];
  migrations: readonly (new () => MigrationInterface)[];
  apply(events: readonly RecordedEvent[], tx: EntityManager): Promise<void>;
}

/**
 * Splits a batch into runs of consecutive events of one type, so a projector can write each run
 * with one set-based statement (a rebuild then costs a few statements per thousand events, not
 * one per event) while the order between runs is kept.
 */
export function runsOfType(events: readonly RecordedEvent[]): { type: string; events: RecordedEvent[] }[] {
  const runs: { type: string; events: RecordedEvent[] }[] = [];
  for (const event of events) {
    const last = runs[runs.length - 1];
    if (last && last.type === event.type) last.events.push(event);
    else runs.push({ type: event.type, events: [event] });
  }
  return runs;
}

/** The typed data of a stored event. Events are checked by their deciders before they are written. */
export function eventData<E extends { type: string; data: object }>(event: RecordedEvent): E['data'] {
  return event.data as unknown as E['data'];
}
