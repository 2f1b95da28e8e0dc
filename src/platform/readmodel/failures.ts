import type { DataSource, EntityManager } from 'typeorm';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { isSocketOrClientFailure, wrappedErrors, type ErrorLike } from '../db/outage.ts';
import type { RecordedEvent } from '../eventstore/port.ts';

/**
 * What a projector or reactor does when an event fails:
 *  - transient: the database, the network or the process failed, not this event. Retrying later
 *    can succeed, so the runner retries with backoff and never moves past the event.
 *  - deterministic: this event cannot be applied, however often it is retried (bad data, a value
 *    a column does not take, a constraint, a TypeError in the projector). The runner parks it
 *    (projection_failures / reactor_failures) and goes on with the next one.
 * Transient: Postgres SQLSTATE classes 08 (connection), 40 (serialization, deadlock), 53
 * (resources), 57 (operator intervention, shutdown, cancel), 58 and XX (system, internal), 25
 * (transaction state, e.g. a read-only standby), 28 and 3D (authorization, database gone), 55P03
 * (lock not available); 42 and 0A too: the projector's own SQL is wrong (a deployment error, never
 * the event's data, which always goes in as parameters), and parking would empty the read model
 * event by event instead of waiting for the fix. Node system errors (ECONNRESET, ECONNREFUSED, …:
 * anything with a `syscall`) and the pg client's connection errors are transient. Anything else,
 * classes 22 (data) and 23 (constraint) included, is deterministic.
 */
type FailureKind = 'transient' | 'deterministic';

const TRANSIENT_CLASSES = new Set(['08', '40', '53', '57', '58', 'XX', '25', '28', '3D', '42', '0A']);
const TRANSIENT_STATES = new Set(['55P03']);

export function failureKind(error: unknown): FailureKind {
  return isTransient(error, 0) ? 'transient' : 'deterministic';
}

function isTransient(error: unknown, depth: number): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const e = error as ErrorLike;
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
    return TRANSIENT_CLASSES.has(e.code.slice(0, 2)) || TRANSIENT_STATES.has(e.code);
  }
  if (isSocketOrClientFailure(e)) return true;
  return wrappedErrors(e).some((inner) => isTransient(inner, depth + 1));
}

type FailureTable = 'projection_failures' | 'reactor_failures';

/** One parked event as the operator sees it. */
export interface ParkedEvent {
  name: string;
  eventId: string;
  position: string;
  streamId: string;
  type: string;
  organisationId: string | null;
  error: string;
  attempts: number;
  failedAt: Date;
}

const errorText = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 2000);

/** The organisation an event belongs to, when it says: its data, or the actor who caused it. */
function organisationOf(event: RecordedEvent): string | null {
  const fromData = (event.data as { organisation_id?: unknown } | undefined)?.organisation_id;
  if (typeof fromData === 'string') return fromData;
  const fromActor = event.metadata?.actor?.organisationId;
  return typeof fromActor === 'string' ? fromActor : null;
}

/** Records (or records again, after a rebuild or a restart) that `name` parked `event`. */
export async function park(
  tx: Pick<EntityManager, 'query'>,
  table: FailureTable,
  name: string,
  event: RecordedEvent,
  error: unknown,
  attempts = 1,
): Promise<void> {
  await tx.query(
    `INSERT INTO ${table} (name, event_id, position, stream_id, event_type, organisation_id, error, attempts, failed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
     ON CONFLICT (name, event_id) DO UPDATE SET error = EXCLUDED.error, attempts = EXCLUDED.attempts, failed_at = EXCLUDED.failed_at`,
    [name, event.id, event.position, event.streamId, event.type, organisationOf(event), errorText(error), attempts],
  );
}

export async function parkedEvents(db: Pick<DataSource, 'query'>, table: FailureTable, names?: readonly string[]): Promise<ParkedEvent[]> {
  const rows: { name: string; event_id: string; position: string; stream_id: string; event_type: string; organisation_id: string | null; error: string; attempts: number; failed_at: Date }[] =
    await db.query(
      `SELECT name, event_id, position, stream_id, event_type, organisation_id, error, attempts, failed_at FROM ${table}
       WHERE $1::text[] IS NULL OR name = ANY($1) ORDER BY name, position`,
      [names ?? null],
    );
  return rows.map((r) => ({
    name: r.name, eventId: r.event_id, position: r.position, streamId: r.stream_id, type: r.event_type,
    organisationId: r.organisation_id, error: r.error, attempts: r.attempts, failedAt: r.failed_at,
  }));
}

/**
 * What a client gets for one resource whose read model parked one of its events: its row is
 * missing or stale, so neither the row nor a 404 would be true. Lists simply lack it (or show it as
 * it was before the parked event); every other resource is served as usual.
 */
export function readModelDegraded(resource: string): DomainError {
  return new DomainError('read_model_degraded', `this ${resource} cannot be shown: the service could not bring its read model up to date`, {
    hint: 'Its events are stored and every other resource is served as usual. The operator sees the event in `projections status` and repairs it; retrying will not help before that.',
  });
}
