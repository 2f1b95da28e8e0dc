import { webhookDecider, type WebhooksState } from '../../../commands/webhooks/decider.ts';
import type { WebhookEvent } from '../../../events/webhooks.ts';
import { webhooksStream } from '../../../events/webhooks.ts';
import type { EventStore, RecordedEvent } from '../../platform/eventstore/port.ts';
import { domainEvent, readAndFold } from '../../platform/handling/read-and-fold.ts';

/** Every event type of a webhooks stream: the fan-out must be shown each, or it sees a gap. */
export const WEBHOOKS_STREAM_EVENT_TYPES: readonly WebhookEvent['type'][] = ['WebhookEndpointRegistered', 'WebhookEndpointDeactivated', 'WebhookSecretRotated', 'WebhookTestRequested', 'WebhookEndpointUpdated'];

/** Organisations whose endpoints are kept; beyond it the longest kept is forgotten (and read again when next needed). */
const MAX_KEPT = 10_000;

const STREAM_PREFIX = webhooksStream('');

interface Kept {
  state: WebhooksState;
  revision: number;
}

/**
 * Each organisation's webhook endpoints as the fan-out knows them, so a source event does not
 * read the organisation's webhooks stream again (and, when it has no active endpoint, not even
 * its invoice). An organisation is read from its stream the first time it is asked for; from
 * then on the webhooks-stream events the reactor runner shows the fan-out (Reactor.observe, in
 * global order, before the batch's reactions) are folded in, so an endpoint registered or
 * deactivated before a source event is known when that event is reacted to. What a read already
 * holds is skipped by revision; a revision gap (an event never shown) forgets the organisation,
 * which is then read again. A read running while an event of its organisation is shown is not
 * kept: it may predate that event.
 */
export class EndpointKnowledge {
  private readonly kept = new Map<string, Kept>();
  private readonly reading = new Map<string, { state: Promise<WebhooksState>; stale: boolean }>();

  constructor(private readonly store: Pick<EventStore, 'readStream'>) {}

  /** Folds a webhooks-stream event in (others are ignored); call in global order. */
  observe(event: RecordedEvent): void {
    if (!event.streamId.startsWith(STREAM_PREFIX)) return;
    const organisationId = event.streamId.slice(STREAM_PREFIX.length);
    const pending = this.reading.get(organisationId);
    if (pending) pending.stale = true;
    const known = this.kept.get(organisationId);
    if (!known || event.revision <= known.revision) return;
    if (event.revision !== known.revision + 1) {
      this.kept.delete(organisationId);
      return;
    }
    try {
      this.kept.set(organisationId, { state: webhookDecider.evolve(known.state, domainEvent<WebhookEvent>(event)), revision: event.revision });
    } catch {
      this.kept.delete(organisationId); // read again rather than trust a fold that failed
    }
  }

  /** The organisation's endpoints: as kept, or read from its stream (and kept). */
  of(organisationId: string): Promise<WebhooksState> {
    const known = this.kept.get(organisationId);
    if (known) return Promise.resolve(known.state);
    const pending = this.reading.get(organisationId);
    if (pending) return pending.state;
    const entry = { state: Promise.resolve({ endpoints: [] } as WebhooksState), stale: false };
    entry.state = readAndFold(this.store, webhooksStream(organisationId), webhookDecider).then(
      ({ state, revision }) => {
        this.reading.delete(organisationId);
        if (!entry.stale) this.keep(organisationId, { state, revision });
        return state;
      },
      (error: unknown) => {
        this.reading.delete(organisationId);
        throw error;
      },
    );
    this.reading.set(organisationId, entry);
    return entry.state;
  }

  private keep(organisationId: string, known: Kept): void {
    this.kept.set(organisationId, known);
    if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
  }
}
