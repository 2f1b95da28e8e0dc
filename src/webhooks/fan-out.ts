import { subscribers, webhookDecider, type WebhooksState } from '../../commands/webhooks/decider.ts';
import { webhooksStream, type WebhookTestRequested } from '../../events/webhooks.ts';
import type { Clock } from '../ports/clock.ts';
import type { EventStore, RecordedEvent } from '../eventstore/port.ts';
import { readAndFold } from '../handling/read-and-fold.ts';
import type { Reactor } from '../reactors/reactor.ts';
import { legacyEventId } from './events/ids.ts';
import { testPingEvent, WEBHOOK_SOURCE_EVENT_TYPES, webhookEventsFor, type WebhookEventOut } from './events/index.ts';
import type { QueuedDelivery, WebhookQueue } from './queue/store.ts';

export interface FanOutDeps {
  store: EventStore;
  clock: Clock;
  queue: WebhookQueue;
  /** wakes the delivery worker for the endpoints just queued */
  queued(endpointIds: readonly string[]): void;
}

/** The id a test ping's envelope carries (the test route answers it). */
export const testPingEventId = (pingId: string) => legacyEventId(pingId, 'test.ping');

/**
 * Turns domain events into queued webhook deliveries: one queue row per subscribed endpoint, with
 * the envelope's exact bytes. Who is subscribed is read from the organisation's webhooks stream
 * (the write side), so an endpoint created just before an event is never missed because a read
 * model lags. Ids derive from the source event, so a reaction repeated after a crash queues the
 * same rows, which the queue keeps once.
 */
export function webhookFanOutReactor(deps: FanOutDeps): Reactor {
  async function queue(events: readonly WebhookEventOut[], endpointsFor: (event: WebhookEventOut) => Promise<string[]>): Promise<void> {
    const rows: QueuedDelivery[] = [];
    for (const event of events) {
      for (const endpointId of await endpointsFor(event)) {
        rows.push({ endpoint_id: endpointId, event_id: event.id, organisation_id: event.organisation_id, event_type: event.type, body: event.body, occurred_at: event.occurred_at });
      }
    }
    if (rows.length === 0) return;
    await deps.queue.enqueue(rows, deps.clock.now().toISOString());
    deps.queued([...new Set(rows.map((r) => r.endpoint_id))]);
  }

  async function endpointsOf(organisationId: string) {
    return (await readAndFold(deps.store, webhooksStream(organisationId), webhookDecider)).state;
  }

  async function reactToTest(event: RecordedEvent): Promise<void> {
    const d = event.data as WebhookTestRequested['data'];
    const ping = testPingEvent({ ping_id: d.ping_id, organisation_id: d.organisation_id, endpoint_id: d.endpoint_id, requested_at: d.requested_at });
    // a ping goes to its endpoint whatever it subscribes to, unless it was deleted meanwhile
    await queue([ping], async () => ((await endpointsOf(d.organisation_id)).endpoints.some((e) => e.endpoint_id === d.endpoint_id && e.is_active) ? [d.endpoint_id] : []));
  }

  return {
    name: 'webhook-fan-out',
    handles: [...WEBHOOK_SOURCE_EVENT_TYPES, 'WebhookTestRequested'],
    concurrency: 16,
    async react(event) {
      if (event.type === 'WebhookTestRequested') return reactToTest(event);
      // the invoice's stream as of the event: a repeated reaction builds the same ids and bytes
      const out = await webhookEventsFor(deps.store, event);
      const organisations = new Map<string, Promise<WebhooksState>>();
      const stateOf = (organisationId: string) => {
        if (!organisations.has(organisationId)) organisations.set(organisationId, endpointsOf(organisationId));
        return organisations.get(organisationId) as Promise<WebhooksState>;
      };
      await queue(out, async (e) => subscribers(await stateOf(e.organisation_id), e.type, e.workspace_id).map((s) => s.endpoint_id));
    },
  };
}
