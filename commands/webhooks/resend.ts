import { NotFound } from '../shared/access.ts';
import { DomainError } from '../shared/domain-error.ts';

/*
 * What a customer sees of an event sent to one of its endpoints, and when it may be sent again.
 * Automatic delivery makes at most five attempts (spec); after that, or when an attempt was
 * blocked or the endpoint deleted, the event is dropped: it stays listed, and a manual resend
 * gives it another round of five through the same durable queue.
 */

/** delivered: a 2xx came back; retrying: an attempt is still to come; dropped: no attempt is to come. */
export type EventDeliveryState = 'delivered' | 'retrying' | 'dropped';

/** Why no attempt is to come for a dropped event. */
export type DropReason = 'attempts_exhausted' | 'target_not_allowed' | 'endpoint_deactivated';

/** The delivery queue's own status of an (endpoint, event) row. */
export type QueueStatus = 'pending' | 'delivered' | 'failed' | 'blocked' | 'cancelled';

export function eventDeliveryState(status: QueueStatus): { state: EventDeliveryState; dropped_reason: DropReason | null } {
  switch (status) {
    case 'pending': return { state: 'retrying', dropped_reason: null };
    case 'delivered': return { state: 'delivered', dropped_reason: null };
    case 'failed': return { state: 'dropped', dropped_reason: 'attempts_exhausted' };
    case 'blocked': return { state: 'dropped', dropped_reason: 'target_not_allowed' };
    case 'cancelled': return { state: 'dropped', dropped_reason: 'endpoint_deactivated' };
  }
}

export const webhookEventNotFound = () => new NotFound('webhook_event_not_found', 'no event with this id was sent to this webhook endpoint');

/**
 * A manual resend (POST …/events/{event_id}/resend): of an event this endpoint was sent
 * (404 otherwise), to an active endpoint (409 `webhook_inactive`), once its automatic delivery is
 * over, delivered or dropped (409 `webhook_event_not_resendable` while attempts are still to come:
 * the queue would send it anyway, and two rounds at once would only double the consumer's work).
 */
export function checkResend(endpoint: { endpoint_id: string; is_active: boolean }, delivery: { event_id: string; status: QueueStatus } | null): void {
  if (delivery === null) throw webhookEventNotFound();
  if (!endpoint.is_active) {
    throw new DomainError('webhook_inactive', 'the webhook endpoint is deactivated: turn it on again (PATCH is_active) before resending', { webhook_id: endpoint.endpoint_id });
  }
  const { state } = eventDeliveryState(delivery.status);
  if (state === 'retrying') {
    throw new DomainError('webhook_event_not_resendable', 'the event is still being delivered (attempts are still to come); resend it once it is delivered or dropped', {
      event_id: delivery.event_id, state,
    });
  }
}
