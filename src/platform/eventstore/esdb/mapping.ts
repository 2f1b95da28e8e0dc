import {
  ANY,
  NO_STREAM,
  jsonEvent,
  type AppendExpectedRevision,
  type CurrentRevision,
  type EventData,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import { START, type EventMetadata, type ExpectedRevision, type NewEvent, type RecordedEvent } from '../port.ts';
import { encodePosition } from './position.ts';

export function toEventData(event: NewEvent): EventData {
  return jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: event.metadata });
}

export function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream' || expected === -1) return NO_STREAM;
  if (!(Number.isSafeInteger(expected) && expected >= 0)) throw new RangeError(`expected revision ${expected} is not a revision`);
  return BigInt(expected);
}

export function fromCurrentRevision(actual: CurrentRevision | AppendExpectedRevision | undefined): number | 'no_stream' | 'unknown' {
  if (typeof actual === 'bigint') return Number(actual);
  return actual === NO_STREAM ? 'no_stream' : 'unknown';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** JSON events arrive parsed; anything else (not written by this service) is parsed if it is JSON. */
function asRecord(value: unknown): Record<string, unknown> {
  if (isRecord(value)) return value;
  if (value instanceof Uint8Array) {
    try {
      const parsed: unknown = JSON.parse(Buffer.from(value).toString('utf8'));
      if (isRecord(parsed)) return parsed;
    } catch {
      // not JSON: fall through
    }
  }
  return {};
}

export function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    // servers before 22.6 omit positions on stream reads; START is then the honest answer
    position: event.position ? encodePosition(event.position) : START,
    type: event.type,
    data: asRecord(event.data),
    metadata: asRecord(event.metadata) as EventMetadata,
    recordedAt: event.created,
  };
}

/** System events ($metadata, $>, stats...) are EventStoreDB's own business, never ours. */
export function isSystemEvent(event: EsdbRecordedEvent): boolean {
  return event.type.startsWith('$');
}
