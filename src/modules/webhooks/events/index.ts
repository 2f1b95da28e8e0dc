import { invoiceStream } from '../../../../events/invoices.ts';
import type { EventStore, RecordedEvent } from '../../../platform/eventstore/port.ts';
import { c5SubmissionEvents, isC5SubmissionSource } from './c5-submissions.ts';
import { webhookEventsOf, type WebhookEventOut } from './envelopes.ts';
import { invoiceFacts, sourceInvoiceId } from './invoice-facts.ts';
import { isLockoutSource, lockoutEvents } from './lockouts.ts';

export * from './c5-submissions.ts';
export * from './catalogue.ts';
export * from './envelopes.ts';
export * from './invoice-facts.ts';
export { openApiWebhooks, WEBHOOK_HEADER_DOCS } from './openapi.ts';

/**
 * The webhook events one domain event raises, read the way a fan-out reaction should: its
 * invoice's stream (or, for a SAPI-SK document or a lock-out, what it names), folded as of the event (so a reaction repeated later builds the same ids and
 * bytes). [] for an event that raises none, or whose invoice stream holds no invoice.
 */
export async function webhookEventsFor(store: Pick<EventStore, 'readStream'>, source: RecordedEvent): Promise<WebhookEventOut[]> {
  if (isC5SubmissionSource(source.type)) return c5SubmissionEvents(store, source);
  if (isLockoutSource(source.type)) return lockoutEvents(store, source);
  const invoiceId = sourceInvoiceId(source);
  if (invoiceId === null) return [];
  const facts = invoiceFacts(await store.readStream(invoiceStream(invoiceId)), source);
  return facts ? webhookEventsOf(source, facts) : [];
}
