import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { WEBHOOK_EVENT_SCHEMAS } from '../../../schemas/webhook-events.ts';
import {
  DEFAULT_WEBHOOK_EVENTS, EMITTED_WEBHOOK_EVENT_TYPES, PARTNER_LIFECYCLE_EVENT_TYPES, WEBHOOK_CATALOGUE, WEBHOOK_EVENT_TYPES, WEBHOOK_SOURCE_EVENT_TYPES,
} from '../../../src/modules/webhooks/events/catalogue.ts';
import { sourceInvoiceId } from '../../../src/modules/webhooks/events/invoice-facts.ts';
import { openApiWebhooks } from '../../../src/modules/webhooks/events/openapi.ts';
import type { RecordedEvent } from '../../../src/platform/eventstore/port.ts';
import { webhookEventsFor } from '../../../src/modules/webhooks/events/index.ts';
import { fixture, record, sentInvoice } from './stories.ts';

describe('webhook catalogue', () => {
  it('emits the spec\'s ten event types, in the envelope the spec gives each, and the two lock-outs (issue 37) in svc.event.v1', () => {
    const envelopes = Object.fromEntries(EMITTED_WEBHOOK_EVENT_TYPES.map((t) => [t, WEBHOOK_CATALOGUE[t].envelope]));
    expect(envelopes).to.deep.equal({
      'invoice.created': 'svc.event.v1', 'invoice.validated': 'svc.event.v1', 'invoice.validation_failed': 'svc.event.v1', 'invoice.queued': 'svc.event.v1',
      'invoice.delivered': 'legacy', 'invoice.received': 'legacy', 'invoice.rejected': 'legacy',
      'invoice.fs_acknowledged': 'svc.event.v1', 'invoice.fs_rejected': 'svc.event.v1', 'test.ping': 'legacy',
      'sapi_client.locked_out': 'svc.event.v1', 'user.locked_out': 'svc.event.v1',
    });
  });

  it('accepts the partner lifecycle types in a subscription but never emits them', () => {
    for (const type of PARTNER_LIFECYCLE_EVENT_TYPES) {
      expect(WEBHOOK_EVENT_TYPES).to.include(type);
      expect(EMITTED_WEBHOOK_EVENT_TYPES as readonly string[]).not.to.include(type);
    }
    expect(WEBHOOK_EVENT_TYPES).to.have.length(EMITTED_WEBHOOK_EVENT_TYPES.length + PARTNER_LIFECYCLE_EVENT_TYPES.length);
  });

  it('defaults to the four outcome events, all emitted', () => {
    expect([...DEFAULT_WEBHOOK_EVENTS]).to.deep.equal(['invoice.delivered', 'invoice.rejected', 'invoice.fs_acknowledged', 'invoice.fs_rejected']);
    for (const type of DEFAULT_WEBHOOK_EVENTS) expect(EMITTED_WEBHOOK_EVENT_TYPES).to.include(type);
  });

  it('raises events from stored domain event types only (each has a stored fixture), each source once', () => {
    expect([...WEBHOOK_SOURCE_EVENT_TYPES].sort()).to.deep.equal([
      'CreditNoteCreated', 'FsCopyAcknowledged', 'FsCopyRejected', 'InvoiceCreated', 'InvoiceQueued', 'InvoiceReceived', 'InvoiceValidated',
      'InvoiceValidationFailed', 'PeppolDeliveryConfirmed', 'PeppolDeliveryFailed', 'SapiClientLockedOut', 'SapiFsAcknowledged', 'SapiFsRejected', 'SignInLockedOut',
    ]);
    for (const type of WEBHOOK_SOURCE_EVENT_TYPES) expect(existsSync(new URL(`../../fixtures/events/${type}.v1.json`, import.meta.url)), type).to.equal(true);
  });

  it('has a body schema for every emitted type and nothing else', () => {
    expect(Object.keys(WEBHOOK_EVENT_SCHEMAS).sort()).to.deep.equal([...EMITTED_WEBHOOK_EVENT_TYPES].sort());
  });

  it('names the invoice stream a source belongs to: a credit note\'s own id, the invoice of a validation failure, none for other events', () => {
    const of = (type: string) => sourceInvoiceId({ type, data: fixture(type).data });
    expect(of('CreditNoteCreated')).to.equal('7c9d4e63-3d2f-4a1b-8b8d-2e3f4a5b6c7d');
    expect(of('InvoiceValidationFailed')).to.equal('12182a3c-f7d6-49ef-bb0f-b0d15748a5ae');
    expect(of('FsCopyAcknowledged')).to.equal('12182a3c-f7d6-49ef-bb0f-b0d15748a5ae');
    expect(of('CreditNoteReserved')).to.equal(null);
    expect(of('PeppolMessageSent')).to.equal(null);
  });
});

describe('OpenAPI webhooks section', () => {
  const section = openApiWebhooks() as Record<string, { post: Record<string, any> }>; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('documents one POST per emitted type with its body schema, when it fires and the delivery headers', () => {
    expect(Object.keys(section).sort()).to.deep.equal([...EMITTED_WEBHOOK_EVENT_TYPES].sort());
    for (const type of EMITTED_WEBHOOK_EVENT_TYPES) {
      const post = section[type]!.post;
      expect(post['description'], type).to.include(WEBHOOK_CATALOGUE[type].when);
      expect(post['requestBody'].content['application/json'].schema, type).to.deep.equal(JSON.parse(JSON.stringify(WEBHOOK_EVENT_SCHEMAS[type])));
      expect(post['parameters'].map((p: { name: string; in: string }) => `${p.in}:${p.name}`), type).to.deep.equal([
        'header:svc-signature', 'header:X-Webhook-Signature', 'header:X-Webhook-Event', 'header:X-Webhook-Delivery', 'header:X-Webhook-Event-Id',
      ]);
      expect(Object.keys(post['responses']), type).to.deep.equal(['2XX', 'default']);
    }
  });

  it('is plain JSON (no TypeBox markers), so it serialises as it is', () => {
    expect(JSON.parse(JSON.stringify(section))).to.deep.equal(section);
  });
});

describe('webhookEventsFor: what a fan-out reaction calls', () => {
  const storeOf = (events: readonly RecordedEvent[]) => ({
    readStream: async (streamId: string) => events.filter((e) => e.streamId === streamId),
  });

  it('folds the source\'s invoice as of the source: the same events later, however the stream grew', async () => {
    const stream = sentInvoice();
    const queued = stream.find((e) => e.type === 'InvoiceQueued')!;
    const early = await webhookEventsFor(storeOf(stream.slice(0, 3)), queued);
    expect(early.map((e) => e.type)).to.deep.equal(['invoice.queued']);
    expect(await webhookEventsFor(storeOf(stream), queued)).to.deep.equal(early);
  });

  it('reads the invoice of a validation failure from the invoice\'s stream', async () => {
    const failure = record('v', ['InvoiceValidationFailed'], 5)[0]!;
    const out = await webhookEventsFor(storeOf(record('v-invoice', ['InvoiceCreated'])), failure);
    expect(out.map((e) => e.type)).to.deep.equal(['invoice.validation_failed']);
  });

  it('raises nothing for an event that is no source, or whose invoice is not there', async () => {
    const stream = sentInvoice();
    expect(await webhookEventsFor(storeOf(stream), stream.find((e) => e.type === 'PeppolMessageSent')!)).to.deep.equal([]);
    expect(await webhookEventsFor(storeOf([]), stream[0]!)).to.deep.equal([]);
  });
});
