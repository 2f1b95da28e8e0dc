import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../../platform/config.ts';
import type { Clock } from '../../platform/ports/clock.ts';
import { retrying } from '../../platform/handling/retry.ts';
import { afterEffect } from '../../platform/reactors/fault.ts';
import { wakeablePause } from '../../platform/pause.ts';
import { webhookEndpointsById, type WebhookEndpointRow } from '../../../projections/webhook-endpoints/queries.ts';
import type { DataSource } from 'typeorm';
import { nextAttemptAfter } from './retry-schedule.ts';
import type { AttemptRecord, ClaimedDelivery, WebhookQueue } from './queue/store.ts';
import type { SecretBox, WebhookSecrets } from './secret-box.ts';
import { legacySignature, svcSignature } from './transport/signatures.ts';
import { WebhookAgents } from './transport/agents.ts';
import type { sendWebhook } from './transport/sender.ts';
import type { TargetCheck } from '../../platform/http-client/target-guard.ts';

interface DeliveryWorkerDeps {
  db: DataSource;
  queue: WebhookQueue;
  clock: Clock;
  log: Logger;
  secrets: WebhookSecrets;
  config: WebhookConfig;
  /** resolves and judges the URL's host before every attempt (src/platform/http-client/target-guard.ts) */
  checkTarget(url: string): Promise<TargetCheck>;
  send: typeof sendWebhook;
  /** told of every attempt's outcome (metrics) */
  observe?(outcome: string): void;
}

/** How long a claimed delivery stays ours: an attempt's timeout plus time to record it. A crashed worker's rows are taken again after it. */
const LEASE_MARGIN_MS = 20_000;
/** When nothing wakes the worker, it looks for due retries at least this often. */
const IDLE_POLL_MS = 1_000;
/** Results are written together: one statement per flush, not per attempt. */
const FLUSH_MS = 10;
const FLUSH_SIZE = 200;
/** How often finished deliveries and old attempts are forgotten. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** How long a lane trusts the endpoint row it read (a deactivation or rotation applies within it). */
const ENDPOINT_FRESH_MS = 500;

/**
 * Delivers queued webhook events. Each endpoint has its own lane with at most
 * `concurrencyPerEndpoint` attempts in flight, so a slow or dead endpoint holds only its own lane.
 * Every attempt re-checks the target (an address no longer public is `blocked`, not retried),
 * connects to the address it checked, is signed afresh (a late retry still passes the consumer's
 * 300 s tolerance) and is logged; a failure waits 5^n s × WEBHOOK_BACKOFF_SCALE before attempt
 * n + 1, and the fifth failure drops the event. All of it is in the queue table, so a restart goes
 * on where it stopped (an attempt under way at a crash is made again: delivery is at least once).
 */
export class WebhookDeliveryWorker {
  private running = false;
  private readonly lanes = new Map<string, Promise<void>>();
  /** endpoints with deliveries queued while their lane was open: the lane claims once more before it ends */
  private readonly requeued = new Set<string>();
  /** opened secrets by their sealed form: opening (AES-GCM) once per secret, not per attempt */
  private readonly opened = new Map<string, string>();
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private pending: AttemptRecord[] = [];
  private flushing: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly abort = new AbortController();
  private readonly agents: WebhookAgents;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.agents = new WebhookAgents({ maxSockets: deps.config.concurrencyPerEndpoint });
    // every attempt in flight listens for the stop: many endpoints at once is expected, not a leak
    setMaxListeners(0, this.abort.signal);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.schedule();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    this.wake?.();
    await this.loop;
    await Promise.all(this.lanes.values());
    await this.flush();
    this.agents.destroyAll();
  }

  /** New deliveries were queued for these endpoints: look now rather than at the next poll. */
  queued(endpointIds: readonly string[]): void {
    if (!this.running) return;
    for (const id of endpointIds) {
      if (this.lanes.has(id)) this.requeued.add(id);
      else this.openLane(id);
    }
  }

  private async schedule(): Promise<void> {
    let prunedAt = 0;
    while (this.running) {
      let wait = IDLE_POLL_MS;
      try {
        const now = this.deps.clock.now();
        if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
          prunedAt = Date.now();
          const pruned = await this.deps.queue.prune(now);
          if (pruned.deliveries + pruned.attempts > 0) this.deps.log.info(pruned, 'forgot finished webhook deliveries and old attempts');
        }
        const due = await this.deps.queue.due(now.toISOString(), [...this.lanes.keys()]);
        for (const id of due.endpoints) this.openLane(id);
        if (due.next) wait = Math.max(5, Math.min(IDLE_POLL_MS, due.next.getTime() - now.getTime()));
      } catch (error) {
        this.deps.log.warn({ err: error }, 'webhook worker could not read its queue; trying again');
      }
      const paused = wakeablePause(wait);
      this.wake = paused.wake;
      await paused.done;
      this.wake = null;
    }
  }

  private openLane(endpointId: string): void {
    if (this.lanes.has(endpointId)) return;
    const lane = this.runLane(endpointId)
      .catch((error: unknown) => this.deps.log.warn({ err: error, endpoint_id: endpointId }, 'webhook lane stopped; the scheduler reopens it'))
      .finally(() => this.lanes.delete(endpointId));
    this.lanes.set(endpointId, lane);
  }

  /**
   * One endpoint's lane: at most `concurrencyPerEndpoint` attempts in flight, and at most two
   * rounds claimed (so the last claimed waits no longer than two timeouts, well inside its lease).
   * It claims again whenever a round's room is free, and ends when nothing is due.
   */
  private async runLane(endpointId: string): Promise<void> {
    const { queue, clock, config } = this.deps;
    const limit = config.concurrencyPerEndpoint;
    const inFlight = new Set<Promise<void>>();
    const waiting: ClaimedDelivery[] = [];
    let endpoint: WebhookEndpointRow | undefined;
    let readAt = 0;
    while (this.running) {
      if (waiting.length + inFlight.size <= limit) {
        this.requeued.delete(endpointId);
        const now = clock.now();
        const claimed = await queue.claim(endpointId, 2 * limit - waiting.length - inFlight.size, now.toISOString(), new Date(now.getTime() + config.timeoutMs + LEASE_MARGIN_MS).toISOString());
        if (claimed.length > 0) {
          // a deactivation or a rotation applies within ENDPOINT_FRESH_MS
          if (!endpoint || Date.now() - readAt > ENDPOINT_FRESH_MS) {
            [endpoint] = await webhookEndpointsById(this.deps.db, [endpointId]);
            readAt = Date.now();
          }
          if (!endpoint) {
            // queued from the write side before the endpoint's row was projected: try again shortly, never drop
            await queue.release(endpointId, [...waiting, ...claimed].map((c) => c.event_id), new Date(clock.now().getTime() + ENDPOINT_FRESH_MS).toISOString());
            await Promise.all(inFlight);
            return;
          }
          if (!endpoint.is_active) {
            this.agents.destroy(endpointId);
            await queue.cancel(endpointId, [...waiting, ...claimed].map((c) => c.event_id));
            waiting.length = 0;
            continue;
          }
          waiting.push(...claimed);
        } else if (inFlight.size === 0 && waiting.length === 0) {
          if (this.requeued.has(endpointId)) continue; // queued while this lane was about to end
          return;
        }
      }
      while (endpoint && inFlight.size < limit) {
        const next = waiting.shift();
        if (!next) break;
        const attempt: Promise<void> = this.attempt(endpoint, next).finally(() => inFlight.delete(attempt));
        inFlight.add(attempt);
      }
      if (inFlight.size > 0) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  }

  private async attempt(endpoint: WebhookEndpointRow, delivery: ClaimedDelivery): Promise<void> {
    const { clock, config } = this.deps;
    const number = delivery.attempts + 1;
    const started = clock.now();
    const deliveryId = randomUUID();
    let outcome: AttemptRecord['outcome'];
    let httpStatus: number | null = null;
    let durationMs = 0;
    const target = await this.deps.checkTarget(endpoint.url);
    if (!target.ok && target.code === 'unresolvable') {
      // DNS failing now is not the address turning private: a failed attempt like a refused connection, retried
      outcome = 'connection';
    } else if (!target.ok) {
      outcome = 'blocked';
      // the address stays in our log; the attempt's record (which the client reads) says only `blocked`
      this.deps.log.warn({ endpoint_id: endpoint.id, reason: target.reason, detail: target.detail }, 'webhook target no longer allowed: attempt blocked, not retried');
    } else {
      const result = await this.deps.send({
        url: endpoint.url, address: target.address, family: target.family, body: delivery.body, timeoutMs: config.timeoutMs,
        agent: this.agents.for(endpoint.id, target.protocol),
        headers: this.headers(await this.deps.secrets.box(), endpoint, delivery, deliveryId, started),
      }, this.abort.signal);
      outcome = result.outcome;
      httpStatus = result.http_status;
      if (httpStatus !== null) afterEffect('webhook-post', delivery.event_id); // the endpoint has it; the attempt is not recorded yet
      durationMs = Math.round(result.duration_ms);
    }
    if (!this.running && outcome !== 'success') return; // stopped mid-attempt: the lease runs out and it is made again
    this.deps.observe?.(outcome);
    const next = outcome === 'success' || outcome === 'blocked' ? null : nextAttemptAfter(number, clock.now(), config.backoffScale);
    const status = outcome === 'success' ? 'delivered' : outcome === 'blocked' ? 'blocked' : next === null ? 'failed' : 'pending';
    this.record({
      delivery_id: deliveryId, endpoint_id: endpoint.id, event_id: delivery.event_id, event_type: delivery.event_type, attempt: number,
      attempted_at: started.toISOString(), duration_ms: durationMs, http_status: httpStatus, outcome, next_retry_at: next?.toISOString() ?? null, status,
    });
    if (status === 'failed') this.deps.log.warn({ endpoint_id: endpoint.id, event_id: delivery.event_id }, 'webhook event dropped after its fifth failed attempt');
  }

  private headers(box: SecretBox, endpoint: WebhookEndpointRow, delivery: ClaimedDelivery, deliveryId: string, at: Date): Record<string, string> {
    const secret = this.open(box, endpoint.secret_ciphertext);
    const overlap = endpoint.previous_secret_ciphertext !== null && endpoint.previous_valid_until !== null && new Date(endpoint.previous_valid_until) > at;
    const previous = overlap && endpoint.previous_secret_ciphertext ? this.open(box, endpoint.previous_secret_ciphertext) : undefined;
    return {
      'content-type': 'application/json',
      'user-agent': 'svc-webhooks/1',
      'svc-signature': svcSignature(secret, Math.floor(at.getTime() / 1000), delivery.body, previous),
      'x-webhook-signature': legacySignature(secret, delivery.body),
      'x-webhook-event': delivery.event_type,
      'x-webhook-delivery': deliveryId,
      'x-webhook-event-id': delivery.event_id,
    };
  }

  private open(box: SecretBox, sealed: string): string {
    let secret = this.opened.get(sealed);
    if (secret === undefined) {
      if (this.opened.size >= 10_000) this.opened.clear();
      secret = box.open(sealed);
      this.opened.set(sealed, secret);
    }
    return secret;
  }

  private record(attempt: AttemptRecord): void {
    this.pending.push(attempt);
    if (this.pending.length >= FLUSH_SIZE) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes the attempts made so far; retried while the database is away (the rows stay leased meanwhile). */
  private async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    await this.flushing;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = (async () => {
      try {
        await retrying(() => this.deps.queue.record(batch), {
          retries: 5, retryIf: () => true, backoff: (tries) => new Promise((r) => setTimeout(r, 100 * 2 ** tries)),
        });
      } catch (error) {
        this.deps.log.error({ err: error, attempts: batch.length }, 'could not record webhook attempts; their deliveries are made again after the lease');
      }
    })();
    await this.flushing;
    this.flushing = null;
  }
}
