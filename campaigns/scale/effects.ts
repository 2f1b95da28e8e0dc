// What the scale campaign reads from the shared database: who holds the follower leases, and the
// side effects that must never be doubled however many instances run the reactors.
import type pg from 'pg';
import { LEASE_LOCK_SPACE } from '../../src/platform/followers/lease.ts';
import type { WebhookReceiver } from '../support/receiver.ts';

/** Every follower lease held in this database, with the service process (pid) holding it. */
export async function leaseHolders(db: pg.Pool): Promise<{ lock: string; pid: number }[]> {
  const { rows } = await db.query<{ lock: string; pid: number }>(
    `SELECT l.objid::text AS lock, split_part(a.application_name, ':', 2)::int AS pid
     FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.granted
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND a.application_name LIKE 'svc-follower-leases:%'`,
    [LEASE_LOCK_SPACE >>> 0],
  );
  return rows;
}

export interface DuplicateEffects {
  /** documents (invoices, credit notes, SAPI documents) sent under more than one Peppol message id */
  peppolIdsPerDocument: number;
  /** the same message sent again (after a crash between send and record): reported, the receiver drops it */
  peppolRetransmissions: number;
  /** inbound copies beyond one per receiving company and message id */
  inboundCopies: number;
  /** FS filings beyond one per document and reporter role */
  fsFilings: number;
  /** one webhook event (endpoint, type, time, payload) queued under more than one event id */
  webhookEventsWithTwoIds: number;
  webhookArrivals: number;
  webhookEventIds: number;
  /** successful deliveries beyond the first per endpoint and event id (at least once; the receiver's count per event id also counts every endpoint) */
  webhookDuplicateArrivals: number;
}

const count = async (db: pg.Pool, sql: string) => Number((await db.query<{ n: string }>(sql)).rows[0]?.n ?? 0);

export async function duplicateEffects(db: pg.Pool, receiver: WebhookReceiver): Promise<DuplicateEffects> {
  const byId = receiver.byEventId();
  return {
    peppolIdsPerDocument: await count(db, `SELECT count(*) AS n FROM (SELECT stream_id FROM events WHERE type IN ('PeppolMessageSent', 'SapiDocumentSent')
      GROUP BY stream_id HAVING count(DISTINCT data->>'peppol_message_id') > 1) d`),
    peppolRetransmissions: await count(db, `SELECT coalesce(sum(c - 1), 0) AS n FROM (SELECT count(*) AS c FROM events WHERE type IN ('PeppolMessageSent', 'SapiDocumentSent')
      GROUP BY stream_id, data->>'peppol_message_id') d`),
    inboundCopies: await count(db, `SELECT coalesce(sum(c - 1), 0) AS n FROM (SELECT count(*) AS c FROM events WHERE type = 'InvoiceReceived'
      GROUP BY data->>'company_id', data->>'peppol_message_id') d`),
    fsFilings: await count(db, `SELECT coalesce(sum(c - 1), 0) AS n FROM (SELECT count(*) AS c FROM fs_sandbox_corner5 GROUP BY reported, reporter_role) d`)
      .catch(() => 0), // no filing at all: the table is made on the first
    webhookEventsWithTwoIds: await count(db, `SELECT count(*) AS n FROM (SELECT 1 FROM webhook_deliveries
      GROUP BY endpoint_id, event_type, occurred_at, (body::jsonb - 'id')::text HAVING count(DISTINCT event_id) > 1) d`),
    webhookArrivals: receiver.arrivals(),
    webhookEventIds: byId.size,
    webhookDuplicateArrivals: await count(db, `SELECT coalesce(sum(c - 1), 0) AS n FROM (SELECT count(*) AS c FROM webhook_attempts WHERE outcome = 'success'
      GROUP BY endpoint_id, event_id) d`),
  };
}
