import { DEFAULT_EVENT_TYPES } from '../../../../commands/webhooks/event-types.ts';

/**
 * Which webhook events exist, in which envelope, and which domain events raise them. The spec's
 * Events table, made checkable: envelopes.ts builds each from its sources, schemas/webhook-events.ts
 * describes each body, and openapi.ts documents them.
 */
interface CatalogueEntry {
  envelope: 'svc.event.v1' | 'legacy';
  /** the domain event types that raise it (none: raised another way) */
  sources: readonly string[];
  /** when it fires, for the consumer guide and the OpenAPI document */
  when: string;
}

export const WEBHOOK_CATALOGUE = {
  'invoice.created': {
    envelope: 'svc.event.v1', sources: ['InvoiceCreated', 'CreditNoteCreated'],
    when: 'An invoice or a credit note was created through the API (received copies raise invoice.received instead).',
  },
  'invoice.validated': {
    envelope: 'svc.event.v1', sources: ['InvoiceValidated'],
    when: 'POST …/invoices/{invoice_id}/validate passed every check and the draft became `validated`.',
  },
  'invoice.validation_failed': {
    envelope: 'svc.event.v1', sources: ['InvoiceValidationFailed'],
    when: 'POST …/invoices/{invoice_id}/validate found errors on an invoice issued here that has not been sent; the invoice is unchanged.',
  },
  'invoice.queued': {
    envelope: 'svc.event.v1', sources: ['InvoiceQueued'],
    when: 'A send was accepted (`queued`): Peppol delivery and the FS copy start.',
  },
  'invoice.delivered': {
    envelope: 'legacy', sources: ['PeppolDeliveryConfirmed'],
    when: 'The receiving Access Point acknowledged the delivery (not for an invoice marked sent by hand).',
  },
  'invoice.received': {
    envelope: 'legacy', sources: ['InvoiceReceived'],
    when: 'An inbound Peppol invoice was received for the company.',
  },
  'invoice.rejected': {
    envelope: 'legacy', sources: ['PeppolDeliveryFailed'],
    when: 'The receiving side returned a rejection (validation, addressing, business rule); a transport give-up or a refusal on our side is not one. '
      + 'In the sandbox, an invoice whose buyer_reference is `SANDBOX-REJECT` is rejected by its receiver.',
  },
  'invoice.fs_acknowledged': {
    envelope: 'svc.event.v1', sources: ['FsCopyAcknowledged', 'SapiFsAcknowledged'],
    when: 'FS acknowledged the tax data copy of a sent (C2) or received (C3) invoice; each company\'s copy raises its own. A document sent through SAPI-SK (no mirror invoice) raises it with resource.type `c5_submission`.',
  },
  'invoice.fs_rejected': {
    envelope: 'svc.event.v1', sources: ['FsCopyRejected', 'SapiFsRejected'],
    when: 'FS rejected the tax data copy of a sent (C2) or received (C3) invoice; data.reasons carries the findings. A document sent through SAPI-SK raises it with resource.type `c5_submission`.',
  },
  'sapi_client.locked_out': {
    envelope: 'svc.event.v1', sources: ['SapiClientLockedOut'],
    when: 'Wrong client secrets at POST /sapi/auth/token locked a SAPI-SK client out for 15 minutes; data.ips names the addresses they came from. '
      + 'Sent to the organisation\'s endpoints and to those of the client\'s company\'s workspace. An IP allowlist on the client prevents the lock-out.',
  },
  'user.locked_out': {
    envelope: 'svc.event.v1', sources: ['SignInLockedOut'],
    when: 'Failed sign-in tries (passwords, or two-factor codes after a right password) locked a user\'s sign-in out; data.ips names the addresses they came from. '
      + 'Sent to the organisation\'s endpoints (a user belongs to no workspace).',
  },
  'test.ping': {
    envelope: 'legacy', sources: [],
    when: 'POST /connect/webhooks/{webhook_id}/test: sent to that endpoint only, whatever its events list.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type EmittedWebhookEventType = keyof typeof WEBHOOK_CATALOGUE;

/** Every event type the service emits. */
export const EMITTED_WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_CATALOGUE) as readonly EmittedWebhookEventType[];

/** Partner lifecycle events: accepted in a subscription, never emitted (out of scope here). */
export const PARTNER_LIFECYCLE_EVENT_TYPES = ['client.linked', 'client.activated', 'client.offboarding', 'client.purged', 'export.completed'] as const;

/** Every type a subscription may name: the emitted ones and the partner lifecycle ones. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [...EMITTED_WEBHOOK_EVENT_TYPES, ...PARTNER_LIFECYCLE_EVENT_TYPES];

/** An endpoint's events when its create names none (the spec's default). */
export const DEFAULT_WEBHOOK_EVENTS = DEFAULT_EVENT_TYPES;

/** The domain event types the fan-out reactor must handle. */
export const WEBHOOK_SOURCE_EVENT_TYPES: readonly string[] = [...new Set(Object.values(WEBHOOK_CATALOGUE).flatMap((e): readonly string[] => e.sources))];
