import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Where a follower of the event log stands: what the lag gauges read at each scrape. */
export interface FollowerLag {
  kind: 'projector' | 'reactor';
  name: string;
  /** events after its checkpoint, up to the cap the reader uses */
  events: number;
  /** seconds since the oldest event it has not passed was appended; 0 when caught up */
  seconds: number;
}

/**
 * The service's Prometheus instruments, one registry per service instance (tests open several
 * in one process). Names follow Prometheus conventions: seconds, `_total` for counters.
 */
export function createMetrics(lags: () => Promise<FollowerLag[]> = async () => []) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // both lag gauges come from one read per scrape, so they agree: the registry collects its metrics
  // at once, so each gauge's collect waits for that read (a gauge filled by the other's collect
  // showed the previous scrape's values, or none on the first)
  let reading: Promise<FollowerLag[]> | null = null;
  const read = () => {
    if (!reading) {
      // the database away must not take /metrics down with it: the lag series are left out then
      reading = lags().catch(() => []);
      void reading.finally(() => setImmediate(() => (reading = null)));
    }
    return reading;
  };
  const lagSeconds: Gauge<'kind' | 'name'> = new Gauge({
    name: 'follower_lag_seconds', help: 'Seconds since the oldest event a projector or reactor has not passed was appended', labelNames: ['kind', 'name'] as const, registers: [],
    async collect() {
      const now = await read();
      lagSeconds.reset();
      for (const l of now) lagSeconds.set({ kind: l.kind, name: l.name }, l.seconds);
    },
  });
  const lagEvents: Gauge<'kind' | 'name'> = new Gauge({
    name: 'follower_lag_events', help: 'Events of the types a projector or reactor handles that it has not passed yet (within the next 1000 of the log)', labelNames: ['kind', 'name'] as const, registers: [registry],
    async collect() {
      const now = await read();
      lagEvents.reset();
      for (const l of now) lagEvents.set({ kind: l.kind, name: l.name }, l.events);
    },
  });
  registry.registerMetric(lagSeconds);
  return {
    registry,
    httpRequests: new Histogram({
      name: 'http_request_duration_seconds', help: 'HTTP requests by front door, method, route template and status',
      labelNames: ['door', 'method', 'route', 'status'] as const, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
    }),
    appends: new Counter({ name: 'eventstore_appends_total', help: 'Appends to the event store made by this instance', registers: [registry] }),
    appendedTypes: new Counter({ name: 'eventstore_appended_event_types_total', help: 'Appends that wrote an event of this type', labelNames: ['type'] as const, registers: [registry] }),
    reactions: new Counter({
      name: 'reactor_reactions_total', help: 'Reactions (side effects: Peppol, FS, SAPI legs, imports) by reactor and outcome: done, failed (retried), parked',
      labelNames: ['reactor', 'outcome'] as const, registers: [registry],
    }),
    validationStage: new Histogram({
      name: 'validation_stage_duration_seconds', help: 'Time of each validation stage (xsd, cen, peppol, sk, …) per document',
      labelNames: ['stage'] as const, buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10], registers: [registry],
    }),
    validationsInFlight: new Gauge({ name: 'validation_pool_in_flight', help: 'Documents waiting for or in the validation pool', registers: [registry] }),
    rateLimitRefusals: new Counter({ name: 'rate_limit_refusals_total', help: 'Requests refused with 429 by the rate limiter', labelNames: ['door'] as const, registers: [registry] }),
    webhookAttempts: new Counter({
      name: 'webhook_delivery_attempts_total', help: 'Webhook delivery attempts by outcome (success, http_error, timeout, connection, blocked, …)',
      labelNames: ['outcome'] as const, registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
