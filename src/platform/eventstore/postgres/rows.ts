import type { EventMetadata, RecordedEvent } from '../port.ts';
import { encodePosition } from './position.ts';

/**
 * recorded_at as whole milliseconds since 1970 (truncated, as a Date parsed from its text keeps it):
 * a number becomes a Date far cheaper than a timestamp's text is parsed, which was a tenth of the
 * client's work per event in a rebuild. floor of the exact numeric, so the float8 is an integer.
 */
const RECORDED_AT = 'floor(extract(epoch FROM recorded_at) * 1000)::float8 AS recorded_at';

/** The columns every read selects, with the 64-bit numbers as text so nothing loses precision. */
export const EVENT_COLUMNS = `global_position::text AS global_position, transaction_id::text AS transaction_id,
  event_id::text AS event_id, stream_id, stream_revision::text AS stream_revision, type, data, metadata, ${RECORDED_AT}`;

/** The same, but data and metadata only for events of the types in parameter `$n` (text[]). */
export const eventColumnsWithDataOf = (n: number) => `global_position::text AS global_position, transaction_id::text AS transaction_id,
  event_id::text AS event_id, stream_id, stream_revision::text AS stream_revision, type,
  CASE WHEN type = ANY($${n}::text[]) THEN data ELSE '{}'::json END AS data,
  CASE WHEN type = ANY($${n}::text[]) THEN metadata ELSE '{}'::json END AS metadata, ${RECORDED_AT}`;

/** EVENT_COLUMNS, but metadata only for events of the types in parameter `$n` (text[]). */
export const eventColumnsWithMetadataOf = (n: number) => `global_position::text AS global_position, transaction_id::text AS transaction_id,
  event_id::text AS event_id, stream_id, stream_revision::text AS stream_revision, type, data,
  CASE WHEN type = ANY($${n}::text[]) THEN metadata ELSE '{}'::json END AS metadata, ${RECORDED_AT}`;

export interface EventRow {
  global_position: string;
  transaction_id: string;
  event_id: string;
  stream_id: string;
  stream_revision: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  /** milliseconds since 1970 (RECORDED_AT) */
  recorded_at: number;
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    position: encodePosition(row.transaction_id, row.global_position),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: new Date(row.recorded_at),
  };
}
