import type { DataSource } from 'typeorm';
import type { QueueStatus } from '../../../../commands/webhooks/resend.ts';
import { pageOf, type PageOf, type PageRequest } from '../../../../projections/shared/page.ts';

/** What an attempt came to (the deliveries route shows it per attempt). */
export type AttemptOutcome = 'success' | 'non_2xx' | 'timeout' | 'connection' | 'redirect' | 'blocked';
/** pending: an attempt is due (now or at next_attempt_at); the others are final until a manual resend. */
type DeliveryStatus = QueueStatus;

/** One event sent to an endpoint, as its event log shows it. */
export interface LoggedEvent {
  event_id: string;
  event_type: string;
  occurred_at: Date;
  enqueued_at: Date;
  status: DeliveryStatus;
  /** attempts in all, every round */
  attempts_total: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_http_status: number | null;
  last_outcome: AttemptOutcome | null;
  resends: number;
  last_resent_at: Date | null;
}

const LOGGED = `event_id, event_type, occurred_at, enqueued_at, status, attempts_before + attempts AS attempts_total, next_attempt_at,
  last_attempt_at, last_http_status, last_outcome, resends, last_resent_at`;

export interface QueuedDelivery {
  endpoint_id: string;
  event_id: string;
  organisation_id: string;
  event_type: string;
  body: string;
  occurred_at: string;
}

export interface ClaimedDelivery extends QueuedDelivery {
  /** attempts already made */
  attempts: number;
}

export interface AttemptRecord {
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_at: string;
  duration_ms: number;
  http_status: number | null;
  outcome: AttemptOutcome;
  next_retry_at: string | null;
  /** what the queue row becomes */
  status: DeliveryStatus;
}

interface AttemptRow {
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_at: Date;
  duration_ms: number;
  http_status: number | null;
  outcome: AttemptOutcome;
  next_retry_at: Date | null;
}

/** The queue's statements, each one round trip whatever the number of rows. */
export function webhookQueue(db: DataSource) {
  return {
    /** Queues deliveries; one already queued (a fan-out repeated after a crash) stays as it is. */
    async enqueue(rows: readonly QueuedDelivery[], now: string): Promise<void> {
      if (rows.length === 0) return;
      await db.query(
        `INSERT INTO webhook_deliveries (endpoint_id, event_id, organisation_id, event_type, body, occurred_at, enqueued_at, status, next_attempt_at)
         SELECT endpoint_id, event_id, organisation_id, event_type, body, occurred_at, $2, 'pending', $2
         FROM jsonb_to_recordset($1::jsonb) AS r(endpoint_id uuid, event_id text, organisation_id uuid, event_type text, body text, occurred_at timestamptz)
         ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
        [JSON.stringify(rows), now],
      );
    },

    /**
     * Endpoints, other than `busy` ones (whose lanes are open and claim for themselves), with an
     * attempt due now, and the earliest retry time still to come. Both are index probes, not scans
     * of the queue: a backlog of a hundred thousand rows costs the scheduler nothing.
     */
    async due(now: string, busy: readonly string[] = []): Promise<{ endpoints: string[]; next: Date | null }> {
      const endpoints: { endpoint_id: string }[] = await db.query(
        `SELECT e.id AS endpoint_id FROM webhook_endpoints e
         WHERE NOT (e.id = ANY($2::uuid[])) AND EXISTS (
           SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= $1
             AND (d.lease_until IS NULL OR d.lease_until <= $1))`,
        [now, busy],
      );
      const next: { next: Date | null }[] = await db.query(
        `SELECT min(next_attempt_at) AS next FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at > $1`, [now]);
      return { endpoints: endpoints.map((r) => r.endpoint_id), next: next[0]?.next ? new Date(next[0].next) : null };
    },

    /**
     * Takes up to `limit` due deliveries of one endpoint for an attempt, oldest due first, leased
     * until `leaseUntil` (another worker skips them). The order is exactly the due index's, so the
     * plan is that index read up to the limit: ordering by a second column let stale statistics on a
     * fast-growing queue pick a plan that sorted every due row of the endpoint (40 ms per claim).
     */
    async claim(endpointId: string, limit: number, now: string, leaseUntil: string): Promise<ClaimedDelivery[]> {
      // TypeORM answers an UPDATE on Postgres with [rows, affected]
      const [rows] = (await db.query(
        `UPDATE webhook_deliveries d SET lease_until = $4
         FROM (SELECT endpoint_id, event_id FROM webhook_deliveries
               WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until <= $3)
               ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED) c
         WHERE d.endpoint_id = c.endpoint_id AND d.event_id = c.event_id
         RETURNING d.endpoint_id, d.event_id, d.organisation_id, d.event_type, d.body, d.occurred_at, d.attempts`,
        [endpointId, limit, now, leaseUntil],
      )) as [(Omit<ClaimedDelivery, 'occurred_at'> & { occurred_at: Date })[], number];
      return rows.map((r) => ({ ...r, occurred_at: new Date(r.occurred_at).toISOString() }));
    },

    /** Logs attempts and moves their deliveries on (retry time, or a final status), releasing the lease. */
    async record(attempts: readonly AttemptRecord[]): Promise<void> {
      if (attempts.length === 0) return;
      await db.query(
        `WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(delivery_id uuid, endpoint_id uuid, event_id text, event_type text, attempt integer,
                     attempted_at timestamptz, duration_ms integer, http_status integer, outcome text, next_retry_at timestamptz, status text)),
              logged AS (INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_id, event_type, attempt, attempted_at, duration_ms, http_status, outcome, next_retry_at)
                         SELECT delivery_id, endpoint_id, event_id, event_type, attempt, attempted_at, duration_ms, http_status, outcome, next_retry_at FROM r
                         ON CONFLICT DO NOTHING)
         UPDATE webhook_deliveries d SET attempts = r.attempt, status = r.status, next_attempt_at = coalesce(r.next_retry_at, d.next_attempt_at), lease_until = NULL,
           last_attempt_at = r.attempted_at, last_http_status = r.http_status, last_outcome = r.outcome
         FROM r WHERE d.endpoint_id = r.endpoint_id AND d.event_id = r.event_id`,
        [JSON.stringify(attempts)],
      );
    },

    /** Gives claimed deliveries back, due again at `dueAt` (their endpoint is not readable yet). */
    async release(endpointId: string, eventIds: readonly string[], dueAt: string): Promise<void> {
      await db.query('UPDATE webhook_deliveries SET lease_until = NULL, next_attempt_at = $3 WHERE endpoint_id = $1 AND event_id = ANY($2::text[])', [endpointId, eventIds, dueAt]);
    },

    /** Deliveries to an endpoint that was deactivated: never attempted. */
    async cancel(endpointId: string, eventIds: readonly string[]): Promise<void> {
      await db.query(`UPDATE webhook_deliveries SET status = 'cancelled', lease_until = NULL WHERE endpoint_id = $1 AND event_id = ANY($2::text[])`, [endpointId, eventIds]);
    },

    /**
     * Forgets what is over: deliveries in a final state whose last attempt (or queueing, or manual
     * resend) is more than `deliveriesDays` ago, so a dropped event stays listed and resendable
     * that long, and attempts older than `attemptsDays` (the deliveries route shows the last 50
     * anyway). Pending deliveries are never removed.
     */
    async prune(now: Date, keep = { deliveriesDays: 30, attemptsDays: 30 }): Promise<{ deliveries: number; attempts: number }> {
      const day = 86_400_000;
      // TypeORM answers a DELETE on Postgres with [rows, affected]
      const [, deliveries] = (await db.query(
        `DELETE FROM webhook_deliveries WHERE status <> 'pending' AND greatest(enqueued_at, last_attempt_at, last_resent_at) < $1`,
        [new Date(now.getTime() - keep.deliveriesDays * day).toISOString()])) as [unknown[], number];
      const [, attempts] = (await db.query(
        'DELETE FROM webhook_attempts WHERE attempted_at < $1', [new Date(now.getTime() - keep.attemptsDays * day).toISOString()])) as [unknown[], number];
      return { deliveries, attempts };
    },

    /** Attempts at an endpoint, newest first, a page at a time (the deliveries route). */
    async attempts(endpointId: string, page: PageRequest = { page: 1, pageSize: 50 }): Promise<PageOf<AttemptRow>> {
      return pageOf(db,
        `SELECT delivery_id, event_id, event_type, attempt, attempted_at, duration_ms, http_status, outcome, next_retry_at
         FROM webhook_attempts WHERE endpoint_id = $1`,
        [endpointId], 'q.attempted_at DESC, q.attempt DESC', page);
    },

    /** Every event sent to an endpoint, newest first, a page at a time (the events route). */
    async events(endpointId: string, page: PageRequest): Promise<PageOf<LoggedEvent>> {
      return pageOf(db, `SELECT ${LOGGED} FROM webhook_deliveries WHERE endpoint_id = $1`, [endpointId], 'q.occurred_at DESC, q.event_id DESC', page);
    },

    async event(endpointId: string, eventId: string): Promise<LoggedEvent | null> {
      const rows: LoggedEvent[] = await db.query(`SELECT ${LOGGED} FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2`, [endpointId, eventId]);
      return rows[0] ?? null;
    },

    /**
     * A manual resend: the event's row is due again now for a new round of attempts (the same
     * body, hence the same event id; every attempt has its own delivery id). Only a row whose
     * round is over is taken, in the one statement, so two resends at once make one round; null
     * when no such row was there (still pending, or gone).
     */
    async resend(endpointId: string, eventId: string, now: string): Promise<LoggedEvent | null> {
      // TypeORM answers an UPDATE on Postgres with [rows, affected]
      const [rows] = (await db.query(
        `UPDATE webhook_deliveries SET status = 'pending', attempts_before = attempts_before + attempts, attempts = 0, next_attempt_at = $3, lease_until = NULL,
           resends = resends + 1, last_resent_at = $3
         WHERE endpoint_id = $1 AND event_id = $2 AND status <> 'pending'
         RETURNING ${LOGGED}`,
        [endpointId, eventId, now],
      )) as [LoggedEvent[], number];
      return rows[0] ?? null;
    },
  };
}

export type WebhookQueue = ReturnType<typeof webhookQueue>;
