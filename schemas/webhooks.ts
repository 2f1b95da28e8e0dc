import { Type, type Static } from '@sinclair/typebox';
import { DESCRIPTION_MAX_LENGTH, URL_MAX_LENGTH } from '../commands/webhooks/decider.ts';
import { DEFAULT_EVENT_TYPES } from '../commands/webhooks/event-types.ts';
import { Page, Uuid } from './common/index.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const WebhookCreate = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: URL_MAX_LENGTH, description: 'http or https; its host must resolve to public internet addresses only' }),
    events: Type.Optional(Type.String({
      minLength: 1, maxLength: 2000,
      description: `comma-separated event types; default \`${DEFAULT_EVENT_TYPES.join(',')}\`. A well-formed type that is never emitted is accepted and never fires`,
    })),
    description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH }))),
  },
  { additionalProperties: false },
);
export type WebhookCreate = Static<typeof WebhookCreate>;

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
});
export type Webhook = Static<typeof Webhook>;

export const WebhookWithSecret = Type.Composite([Webhook, Type.Object({
  secret: Type.String({ pattern: '^whsec_', description: 'the signing secret, shown this once: store it now' }),
})]);
export type WebhookWithSecret = Static<typeof WebhookWithSecret>;

export const WebhookList = Page(Webhook);

export const WebhookTestFired = Type.Object({
  webhook_id: Uuid,
  event_id: Type.String({ description: 'the test.ping\'s id (X-Webhook-Event-Id); find its attempts in deliveries' }),
  event: Type.Literal('test.ping'),
});

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
});
export type WebhookDeliveryAttempt = Static<typeof WebhookDeliveryAttempt>;

export const WebhookDeliveryList = Page(WebhookDeliveryAttempt);
