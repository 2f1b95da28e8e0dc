import type { RecordedEvent } from '../../platform/eventstore/port.ts';

/*
 * What a request resumed under its Idempotency-Key answers when its first run got as far as its
 * effect and died before its answer was kept: that run's resource, named by the id its first
 * minted id was, answered as that run would have. Read from the event store (the write side).
 * Each module recovers its own resources (its recovery.ts); this is what they share.
 */

/** The first event of a stream, with the version the request that wrote it left the stream at. */
export function firstWrite(events: RecordedEvent[]): { first: RecordedEvent; version: number } | null {
  const first = events[0];
  if (!first) return null;
  const own = events.filter((e) => e.metadata.correlationId === first.metadata.correlationId);
  return { first, version: own[own.length - 1]?.revision ?? first.revision };
}

