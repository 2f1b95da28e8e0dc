import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhook delivery queue and its attempt log. Not a read model (nothing rebuilds them from
 * events): operational state of the delivery worker, like a reactor's checkpoint. One queue row per
 * (endpoint, event) keeps the envelope bytes, the attempts made and when the next is due, so
 * pending retries survive a restart; a lease marks rows an attempt is under way for.
 */
export class WebhookQueue1764400000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhook_deliveries (
      endpoint_id uuid NOT NULL,
      event_id text NOT NULL,
      organisation_id uuid NOT NULL,
      event_type text NOT NULL,
      body text NOT NULL,
      occurred_at timestamptz NOT NULL,
      enqueued_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      status varchar(10) NOT NULL,
      next_attempt_at timestamptz NOT NULL,
      lease_until timestamptz,
      PRIMARY KEY (endpoint_id, event_id))`);
    await q.query(`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE TABLE webhook_attempts (
      delivery_id uuid PRIMARY KEY,
      endpoint_id uuid NOT NULL,
      event_id text NOT NULL,
      event_type text NOT NULL,
      attempt integer NOT NULL,
      attempted_at timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      http_status integer,
      outcome varchar(12) NOT NULL,
      next_retry_at timestamptz)`);
    await q.query('CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, attempted_at DESC)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_attempts, webhook_deliveries');
  }
}

/** The earliest retry still to come, as an index probe (the scheduler asks every second). */
export class WebhookQueueNextAttempt1764400000200 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_deliveries_next ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_deliveries_next');
  }
}

/**
 * A queue table changes fast (every delivery updates its row twice): analyse and vacuum it after
 * 1 % of its rows changed, not the default 10-20 %, so its plans follow its size.
 */
export class WebhookQueueAutovacuum1764400000300 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries RESET (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor)');
  }
}

/**
 * The queue row as the endpoint's event log (GET …/events): every event sent to an endpoint with
 * its attempts in all, its last attempt, and its manual resends. `attempts` stays the count of the
 * current round (the retry schedule's n, five at most); a resend starts a new round, and
 * `attempts_before` keeps what earlier rounds made so the total is set, not incremented (recording
 * a batch again changes nothing). The list reads newest first by the event's time.
 */
export class WebhookQueueEventLog1766600000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries
      ADD COLUMN attempts_before integer NOT NULL DEFAULT 0,
      ADD COLUMN last_attempt_at timestamptz,
      ADD COLUMN last_http_status integer,
      ADD COLUMN last_outcome varchar(12),
      ADD COLUMN resends integer NOT NULL DEFAULT 0,
      ADD COLUMN last_resent_at timestamptz`);
    await q.query(`UPDATE webhook_deliveries d SET last_attempt_at = a.attempted_at, last_http_status = a.http_status, last_outcome = a.outcome
      FROM (SELECT DISTINCT ON (endpoint_id, event_id) endpoint_id, event_id, attempted_at, http_status, outcome FROM webhook_attempts
            ORDER BY endpoint_id, event_id, attempted_at DESC, attempt DESC) a
      WHERE d.endpoint_id = a.endpoint_id AND d.event_id = a.event_id`);
    await q.query('CREATE INDEX webhook_deliveries_endpoint_log ON webhook_deliveries (endpoint_id, occurred_at DESC, event_id DESC)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_deliveries_endpoint_log');
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN attempts_before, DROP COLUMN last_attempt_at, DROP COLUMN last_http_status,
      DROP COLUMN last_outcome, DROP COLUMN resends, DROP COLUMN last_resent_at`);
  }
}
