import { Type, type Static } from '@sinclair/typebox';
import { DESCRIPTION_MAX_LENGTH, URL_MAX_LENGTH } from '../commands/webhooks/decider.ts';
import { DEFAULT_EVENT_TYPES } from '../commands/webhooks/event-types.ts';
import { Page, Uuid } from './common/index.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const WebhookUrl = Type.String({ minLength: 1, maxLength: URL_MAX_LENGTH, description: 'http or https; its host must resolve to public internet addresses only' });

/** `events` as the spec sends it (a comma-separated string) or as most clients build it (an array). */
export const WebhookEventTypes = Type.Union([
  Type.String({ minLength: 1, maxLength: 2000, description: 'comma-separated event types (the spec\'s form)', examples: ['invoice.delivered,invoice.rejected'] }),
  Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 50, description: 'event types, one per entry', examples: [['invoice.delivered', 'invoice.rejected']] }),
], {
  $id: 'WebhookEventTypes', title: 'WebhookEventTypes',
  description: 'Event types to subscribe to: a comma-separated string or an array of strings; answers always give the comma-separated string. A well-formed type that is never emitted is accepted and never fires.',
});

export const WebhookCreate = Type.Object(
  {
    url: WebhookUrl,
    events: Type.Optional(Type.Union(WebhookEventTypes.anyOf, {
      description: `${WebhookEventTypes.description ?? ''} Default \`${DEFAULT_EVENT_TYPES.join(',')}\`.`,
    })),
    description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH }))),
  },
  { additionalProperties: false, $id: 'WebhookCreate', title: 'WebhookCreate' },
);
export type WebhookCreate = Static<typeof WebhookCreate>;

/** PATCH /connect/webhooks/{webhook_id}: every field optional; one left out stays as it is. */
export const WebhookUpdate = Type.Object(
  {
    url: Type.Optional(Type.String({ ...WebhookUrl, description: 'checked again exactly as at create (422 `webhook_url_not_allowed` for a host that is not public)' })),
    events: Type.Optional(WebhookEventTypes),
    description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH, description: 'null clears it' }))),
    is_active: Type.Optional(Type.Boolean({ description: 'false deactivates it (as DELETE does); true turns a deactivated endpoint on again, counted toward the 10 active endpoints' })),
  },
  { additionalProperties: false, $id: 'WebhookUpdate', title: 'WebhookUpdate', description: 'The fields to change; at least one is usual, none changes nothing.' },
);
export type WebhookUpdate = Static<typeof WebhookUpdate>;

export const Webhook = Type.Object({
  id: Uuid,
  url: Type.String(),
  events: Type.String({ description: 'the stored subscription, comma-separated' }),
  is_active: Type.Boolean({ description: 'false once deleted (soft deactivation)' }),
  description: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  workspace_id: Nullable(Uuid),
  scope: Type.Union([Type.Literal('organisation'), Type.Literal('workspace')], {
    description: '`organisation`: every company of the organisation, including companies added later; `workspace`: every company of workspace_id, including companies added later',
  }),
  version: Type.Integer({ minimum: 0, description: 'the endpoint\'s version: 0 when created, one more with every change of it (PATCH, delete, rotation); send it as If-Match on PATCH' }),
}, { $id: 'Webhook', title: 'Webhook' });
export type Webhook = Static<typeof Webhook>;

export const WebhookWithSecret = Type.Composite([Webhook, Type.Object({
  secret: Type.String({ pattern: '^whsec_', description: 'the signing secret, shown this once: store it now' }),
})], { $id: 'WebhookWithSecret', title: 'WebhookWithSecret' });
export type WebhookWithSecret = Static<typeof WebhookWithSecret>;

export const WebhookList = Type.Object(Page(Webhook).properties, { $id: 'WebhookList', title: 'WebhookList' });

export const WebhookTestFired = Type.Object({
  webhook_id: Uuid,
  event_id: Type.String({ description: 'the test.ping\'s id (X-Webhook-Event-Id); find its attempts in deliveries' }),
  event: Type.Literal('test.ping'),
}, { $id: 'WebhookTestFired', title: 'WebhookTestFired' });

export const WebhookDeliveryOutcome = Type.Union(
  ['success', 'non_2xx', 'timeout', 'connection', 'redirect', 'blocked'].map((o) => Type.Literal(o)),
  { description: 'success: a 2xx; non_2xx; timeout (10 s for the whole exchange); connection (refused, reset, TLS, or the host did not resolve at that moment; retried); redirect (a 3xx, never followed); blocked (the host no longer resolves to public addresses only: not retried)' },
);

export const WebhookDeliveryAttempt = Type.Object({
  delivery_id: Uuid,
  event_id: Type.String(),
  event_type: Type.String(),
  attempt: Type.Integer({ minimum: 1, maximum: 5 }),
  attempted_at: Type.String({ format: 'date-time' }),
  duration_ms: Type.Integer({ minimum: 0 }),
  http_status: Nullable(Type.Integer()),
  outcome: WebhookDeliveryOutcome,
  next_retry_at: Nullable(Type.String({ format: 'date-time', description: 'when the next attempt is due; null after a success, a blocked attempt or the fifth failure' })),
}, { $id: 'WebhookDeliveryAttempt', title: 'WebhookDeliveryAttempt', description: 'One attempt; `attempt` counts within a round of five (a manual resend starts a new round).' });
export type WebhookDeliveryAttempt = Static<typeof WebhookDeliveryAttempt>;

export const WebhookDeliveryList = Type.Object(Page(WebhookDeliveryAttempt).properties, { $id: 'WebhookDeliveryList', title: 'WebhookDeliveryList' });

export const WebhookEventState = Type.Union(['delivered', 'retrying', 'dropped'].map((s) => Type.Literal(s)), {
  description: 'delivered: a 2xx came back; retrying: attempts are still to come (the first one included); dropped: none is to come (see dropped_reason): resend it',
});

/** One event sent to an endpoint (GET …/events). */
export const WebhookEventRecord = Type.Object({
  event_id: Type.String({ description: 'the event\'s id (X-Webhook-Event-Id; the envelope\'s `id`): the same on every attempt and resend' }),
  event_type: Type.String({ description: 'X-Webhook-Event' }),
  created_at: Type.String({ format: 'date-time', description: 'when the event happened' }),
  queued_at: Type.String({ format: 'date-time', description: 'when it was queued for this endpoint' }),
  state: WebhookEventState,
  dropped_reason: Nullable(Type.Union(['attempts_exhausted', 'target_not_allowed', 'endpoint_deactivated'].map((s) => Type.Literal(s)), {
    description: 'attempts_exhausted: five attempts failed; target_not_allowed: the host no longer resolved to public addresses only; endpoint_deactivated: the endpoint was deleted before delivery',
  })),
  attempts: Type.Integer({ minimum: 0, description: 'attempts made in all, resends included' }),
  next_attempt_at: Nullable(Type.String({ format: 'date-time', description: 'when the next attempt is due, while retrying' })),
  last_attempt: Nullable(Type.Object({
    attempted_at: Type.String({ format: 'date-time' }),
    http_status: Nullable(Type.Integer({ description: 'the endpoint\'s answer; null when none came (timeout, connection, blocked)' })),
    outcome: WebhookDeliveryOutcome,
  }, { description: 'null before the first attempt' })),
  resends: Type.Integer({ minimum: 0, description: 'manual resends so far' }),
  last_resent_at: Nullable(Type.String({ format: 'date-time' })),
}, { $id: 'WebhookEventRecord', title: 'WebhookEventRecord' });
export type WebhookEventRecord = Static<typeof WebhookEventRecord>;

export const WebhookEventList = Type.Object(Page(WebhookEventRecord).properties, { $id: 'WebhookEventList', title: 'WebhookEventList' });

/** POST …/events/{event_id}/resend: what was queued. */
export const WebhookResendQueued = Type.Object({
  webhook_id: Uuid,
  event: WebhookEventRecord,
}, { $id: 'WebhookResendQueued', title: 'WebhookResendQueued', description: 'The event queued again (state `retrying`), with the same event id; its attempts come from the delivery queue, each with a new X-Webhook-Delivery.' });
export type WebhookResendQueued = Static<typeof WebhookResendQueued>;
