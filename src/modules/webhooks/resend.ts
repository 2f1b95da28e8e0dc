import { checkResend } from '../../../commands/webhooks/resend.ts';
import type { Clock } from '../../platform/ports/clock.ts';
import type { LoggedEvent, WebhookQueue } from './queue/store.ts';

export interface ResendDeps {
  queue: Pick<WebhookQueue, 'event' | 'resend'>;
  clock: Clock;
  /** wakes the delivery worker for the endpoint: the attempts come from the queue, not from the request */
  queued(endpointIds: readonly string[]): void;
}

/** Concurrent resends of one event: the queue lets one through; a loser is checked again on what it finds. */
const RACES = 3;

/**
 * POST …/events/{event_id}/resend: the event's queue row is due again for a new round of five
 * attempts (the durable path every delivery takes: it survives a restart, and the endpoint's lane
 * sends it). The rule is checkResend's; the queue's conditional update makes it hold under races.
 */
export async function resendEvent(deps: ResendDeps, endpoint: { id: string; is_active: boolean }, eventId: string): Promise<LoggedEvent> {
  for (let round = 0; ; round++) {
    const found = await deps.queue.event(endpoint.id, eventId);
    checkResend({ endpoint_id: endpoint.id, is_active: endpoint.is_active }, found && { event_id: found.event_id, status: found.status });
    const queued = await deps.queue.resend(endpoint.id, eventId, deps.clock.now().toISOString());
    if (queued) {
      deps.queued([endpoint.id]);
      return queued;
    }
    if (round >= RACES) throw new Error(`webhook event ${eventId} could not be queued again after ${RACES} races`);
  }
}
