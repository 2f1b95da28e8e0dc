import { randomUUID } from 'node:crypto';
import type { EventStore, NewEvent, Position, RecordedEvent } from '../../src/platform/eventstore/port.ts';

/** A unique stream id, so suites can share a long-lived store (EventStoreDB) without clashing. */
export function streamId(name: string): string {
  return `contract_${name}-${randomUUID()}`;
}

export function newEvent(type: string, data: Record<string, unknown> = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { causationId: randomUUID(), correlationId: randomUUID(), actor: { type: 'system', id: 'contract-test' } },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `done` holds (subscriber order is eventually consistent); fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(25);
  }
}

/** Events after `after` that belong to `streams`, once all `count` of them are readable. */
export async function readAllOf(store: EventStore, after: Position, streams: string[], count: number): Promise<RecordedEvent[]> {
  const ours = (events: RecordedEvent[]) => events.filter((e) => streams.includes(e.streamId));
  return ours(await eventually(() => store.readAll(after, 10_000), (events) => ours(events).length >= count));
}

/** A position after which only events appended later appear: the position of a fresh marker append. */
export async function mark(store: EventStore): Promise<Position> {
  const { position } = await store.append(streamId('marker'), [newEvent('Marker')], 'no_stream');
  return position;
}


export { endPool } from '../../src/platform/db/end-pool.ts';
