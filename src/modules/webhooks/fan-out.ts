import { activeEndpoints, subscribers, webhookDecider, type WebhooksState } from '../../../commands/webhooks/decider.ts';
import { webhooksStream, type WebhookTestRequested } from '../../../events/webhooks.ts';
import type { Clock } from '../../platform/ports/clock.ts';
import type { EventStore, RecordedEvent } from '../../platform/eventstore/port.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';
import type { Reactor } from '../../platform/reactors/reactor.ts';
import { legacyEventId } from './events/ids.ts';
import { EndpointKnowledge, WEBHOOKS_STREAM_EVENT_TYPES } from './endpoint-knowledge.ts';
import { sourceInvoiceId, testPingEvent, WEBHOOK_SOURCE_EVENT_TYPES, webhookEventsFor, type WebhookEventOut } from './events/index.ts';
import type { QueuedDelivery, WebhookQueue } from './queue/store.ts';

/** Invoices whose organisation is kept; beyond it the longest kept is forgotten (its stream says it again). */
const MAX_INVOICES = 10_000;

const SOURCE_TYPES = new Set(WEBHOOK_SOURCE_EVENT_TYPES);

/** The source events that begin an invoice's stream and name its organisation. */
const FIRST_EVENTS = new Set(['InvoiceCreated', 'CreditNoteCreated', 'InvoiceReceived']);

interface FanOutDeps {
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
 * the envelope's exact bytes. Who is subscribed comes from the organisation's webhooks stream (the
 * write side), so an endpoint created just before an event is never missed because a read model
 * lags: read once per organisation and then kept current by the webhooks-stream events the runner
 * shows this reactor in order (EndpointKnowledge). A source event of an organisation without an
 * active endpoint (most of them) costs no read at all. Ids derive from the source event, so a
 * reaction repeated after a crash queues the same rows, which the queue keeps once.
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

  const knowledge = new EndpointKnowledge(deps.store);
  /** One reaction's view of organisations' endpoints: the kept knowledge for an observed event, else each read once. */
  function endpointsFor(isObserved: boolean): (organisationId: string) => Promise<WebhooksState> {
    if (isObserved) return (organisationId) => knowledge.of(organisationId);
    const read = new Map<string, Promise<WebhooksState>>();
    return (organisationId) => {
      if (!read.has(organisationId)) read.set(organisationId, endpointsOf(organisationId));
      return read.get(organisationId) as Promise<WebhooksState>;
    };
  }

  // an invoice's organisation never changes: known from its first event, or from a fold
  const organisations = new Map<string, string>();
  function remember(invoiceId: string, organisationId: string): void {
    if (organisations.get(invoiceId) === organisationId) return;
    organisations.set(invoiceId, organisationId);
    if (organisations.size > MAX_INVOICES) organisations.delete(organisations.keys().next().value as string);
  }
  /** The organisation of a source event about an invoice, when known without reading; null: found by building its webhook events. */
  function organisationOf(event: RecordedEvent): string | null {
    const invoiceId = sourceInvoiceId(event);
    if (invoiceId === null) return null;
    const stated = event.data['organisation_id'];
    if (FIRST_EVENTS.has(event.type) && typeof stated === 'string') remember(invoiceId, stated);
    return organisations.get(invoiceId) ?? null;
  }

  async function reactToTest(event: RecordedEvent): Promise<void> {
    const d = event.data as WebhookTestRequested['data'];
    const ping = testPingEvent({ ping_id: d.ping_id, organisation_id: d.organisation_id, endpoint_id: d.endpoint_id, requested_at: d.requested_at });
    // a ping goes to its endpoint whatever it subscribes to, unless it was deleted meanwhile
    await queue([ping], async () => ((await endpointsOf(d.organisation_id)).endpoints.some((e) => e.endpoint_id === d.endpoint_id && e.is_active) ? [d.endpoint_id] : []));
  }

  // the source events of an observed batch: only for them is the kept knowledge current
  const observed = new WeakSet<RecordedEvent>();

  return {
    name: 'webhook-fan-out',
    handles: [...new Set([...WEBHOOK_SOURCE_EVENT_TYPES, ...WEBHOOKS_STREAM_EVENT_TYPES])],
    concurrency: 16,
    observe(events) {
      for (const event of events) {
        knowledge.observe(event);
        observed.add(event);
      }
    },
    async react(event) {
      if (event.type === 'WebhookTestRequested') return reactToTest(event);
      if (!SOURCE_TYPES.has(event.type)) return; // an endpoint's own event: observed, nothing to send
      const stateOf = endpointsFor(observed.has(event));
      // an organisation without an active endpoint receives nothing: its invoice is not even read
      const organisationId = organisationOf(event);
      if (organisationId !== null && activeEndpoints(await stateOf(organisationId)).length === 0) return;
      // the invoice's stream as of the event: a repeated reaction builds the same ids and bytes
      const out = await webhookEventsFor(deps.store, event);
      const invoiceId = sourceInvoiceId(event);
      if (invoiceId !== null) for (const e of out) remember(invoiceId, e.organisation_id);
      await queue(out, async (e) => subscribers(await stateOf(e.organisation_id), e.type, e.workspace_id).map((s) => s.endpoint_id));
    },
  };
}
