import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import { Uuid } from './common/index.ts';

/*
 * What a webhook endpoint receives: the two envelopes (svc.event.v1, legacy) and the data of each
 * emitted event type. Bodies are compact JSON with the fields in the order listed here. Envelopes
 * are closed; `data` objects are open, since new keys may appear in them within v1 (spec,
 * Versioning): consumers must ignore keys they do not know.
 */

const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const DateTime = (description: string) => Type.String({ format: 'date-time', description });
const Money = (description: string) => Type.String({ pattern: '^-?\\d+\\.\\d{2}$', description });
const Data = <P extends TProperties>(properties: P, description: string) =>
  Type.Object(properties, { additionalProperties: true, description });

/** svc.event.v1 event id. */
export const SvcEventId = Type.String({ pattern: '^evt_[0-9a-f]{32}$', description: '`evt_` + 32 lowercase hex; stable for the logical event (repeated on retries and re-sends)' });
/** Legacy event id: UUIDv4-shaped, stable for the logical event. */
export const LegacyEventId = Type.String({
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$',
  description: 'UUID (version 4 form) unique to the logical event; repeated on retries',
});

const InvoiceType = Type.Union([Type.Literal('380'), Type.Literal('381'), Type.Literal('325'), Type.Literal('384')], { description: '380 invoice, 381 credit note, 325 proforma, 384 corrected invoice' });
const InvoiceStatus = Type.String({ description: 'the invoice status (see Invoice status values) when the event happened' });
const Finding = Type.Object({ rule: Type.String(), message: Type.String() }, { additionalProperties: true });

// ---- svc.event.v1 data ----

export const InvoiceCreatedData = Data({
  invoice_id: Uuid,
  invoice_number: Type.String(),
  company_id: Uuid,
  invoice_type: InvoiceType,
  status: Type.Literal('draft', { description: 'every document starts as a draft (one sent or put up for approval at once raises its next event right after)' }),
  credited_invoice_id: nullable(Uuid),
  issue_date: Type.String({ format: 'date' }),
  currency_code: Type.String({ pattern: '^[A-Z]{3}$' }),
  buyer_name: Type.String(),
  buyer_vat_id: nullable(Type.String()),
  total_net: Money('BT-109'),
  total_vat: Money('BT-110'),
  total_gross: Money('BT-112'),
  created_at: DateTime('when it was created'),
}, 'An invoice, or a credit note (invoice_type 381; credited_invoice_id set when made through the credit-note route), was created.');

export const InvoiceValidatedData = Data({
  invoice_id: Uuid,
  invoice_number: Type.String(),
  company_id: Uuid,
  status: Type.Literal('validated'),
  validated_by: Type.String({ description: 'API key, user or OAuth client id' }),
  validated_at: DateTime('when the validate route passed it'),
}, 'POST …/validate found no error: the draft is `validated`.');

export const InvoiceValidationFailedData = Data({
  invoice_id: Uuid,
  invoice_number: Type.String(),
  company_id: Uuid,
  status: InvoiceStatus,
  business_rules_valid: Type.Boolean(),
  xsd_valid: nullable(Type.Boolean()),
  peppol_valid: nullable(Type.Boolean()),
  slovak_valid: nullable(Type.Boolean()),
  error_count: Type.Integer({ minimum: 0, description: 'every fatal finding; a stage that could not run (null) fails without one' }),
  errors: Type.Array(Type.Object({ rule: Type.String(), message: Type.String(), location: nullable(Type.String()) }, { additionalProperties: true }), {
    maxItems: 50, description: 'the first 50 fatal findings: business rules (location = field), then XSD, CEN/Peppol and Slovak (location = XPath or line:col)',
  }),
  failed_at: DateTime('when the validate route answered'),
}, 'POST …/validate found errors on an invoice issued here that has not been sent. The invoice does not change (status, version).');

export const InvoiceQueuedData = Data({
  invoice_id: Uuid,
  invoice_number: Type.String(),
  company_id: Uuid,
  status: Type.Literal('queued'),
  message_id: Type.String({ description: 'Peppol SBDH instance identifier of this send (peppol_message_id)' }),
  receiver_participant_id: Type.String(),
  queued_at: DateTime('when the send was accepted'),
}, 'A send was accepted: Peppol delivery and the FS copy start.');

const fsData = (verdict: 'acknowledged' | 'rejected') => Data({
  invoice_id: nullable(Uuid),
  invoice_number: nullable(Type.String()),
  direction: Type.Union([Type.Literal('sent'), Type.Literal('received')]),
  supplier_vat_id: nullable(Type.String({ description: 'null only without a mirror invoice' })),
  provider_document_id: nullable(Type.String()),
  reporter_role: Type.Union([Type.Literal('C2'), Type.Literal('C3')], { description: 'C2 when sent, C3 when received' }),
  state: Type.Literal(verdict),
  tdd_uuid: Type.String(),
  mls_response_code: Type.String({ description: 'AP acknowledged, RE rejected' }),
  acknowledged_at: verdict === 'acknowledged' ? DateTime('FS verdict time') : Type.Null(),
  rejected_at: verdict === 'rejected' ? DateTime('FS verdict time') : Type.Null(),
  reasons: verdict === 'rejected'
    ? Type.Object({
      description: Type.String(),
      issues: Type.Array(Type.Object({ rule: Type.String(), message: Type.String(), location: nullable(Type.String()) }, { additionalProperties: true })),
    }, { additionalProperties: true })
    : Type.Null(),
}, verdict === 'acknowledged'
  ? 'FS acknowledged the tax data copy of one company\'s copy of an invoice (sent: C2, received: C3). Match a sent event by invoice_number, a received one by supplier_vat_id plus invoice_number.'
  : 'FS rejected the tax data copy; reasons carries the findings.');

export const FsAcknowledgedData = fsData('acknowledged');
export const FsRejectedData = fsData('rejected');

// ---- security (svc.event.v1) ----

const LockoutAddresses = Type.Array(Type.String(), {
  minItems: 1, description: 'every address whose failed tries caused the lock-out, each once, in the order they first failed',
});

export const SapiClientLockedOutData = Data({
  sapi_client_id: Type.String({ description: 'the SAPI-SK client_id locked out' }),
  company_id: Uuid,
  failures: Type.Integer({ minimum: 1, description: 'the wrong secrets counted (5 within 15 minutes)' }),
  ips: LockoutAddresses,
  locked_at: DateTime('when the wrong secret that locked it came'),
  locked_until: DateTime('until when POST /sapi/auth/token refuses the client (SAPI-AUTH-LOCKED), the right secret included'),
}, 'Wrong client secrets at POST /sapi/auth/token locked a SAPI-SK client out for 15 minutes. Tokens already issued keep working. '
  + 'An IP allowlist on the client prevents it: a request from outside the list is refused (SAPI-AUTH-IP) before its secret is looked at, so it never counts.');

export const UserLockedOutData = Data({
  user_id: Uuid,
  email: Type.String(),
  scope: Type.Union([Type.Literal('account'), Type.Literal('two_factor_challenge')], {
    description: '`account`: wrong passwords at sign-in or on a password or two-factor change; `two_factor_challenge`: wrong codes after a right password',
  }),
  failures: Type.Integer({ minimum: 1, description: 'the failed tries counted within the last 15 minutes' }),
  ips: LockoutAddresses,
  locked_at: DateTime('when the failed try that locked it came'),
  locked_until: DateTime('when the next try is let through (then one every 30 s while the failures go on)'),
}, 'Failed tries locked a user\'s sign-in out (429 too_many_attempts). One event per lock-out: while the tries go on, at most one every 15 minutes.');

// ---- legacy data ----

export const InvoiceDeliveredData = Data({
  invoice_id: Uuid,
  invoice_number: Type.String(),
  company_id: Uuid,
  message_id: Type.String({ description: 'Peppol SBDH instance identifier (peppol_message_id)' }),
  delivered_at: DateTime('when the receiving Access Point reported delivery'),
}, 'The receiving Access Point acknowledged the delivery.');

export const InvoiceReceivedData = Data({
  invoice_id: Uuid,
  source: Type.Literal('peppol'),
  invoice_number: Type.String(),
  supplier_vat_id: nullable(Type.String()),
  message_id: Type.String({ description: 'Peppol SBDH instance identifier, equal to peppol_message_id on the invoice' }),
  provider_document_id: nullable(Type.String({ description: 'SAPI-SK receive handle; null when the connector holds no copy' })),
  company_id: Uuid,
  received_at: DateTime('when our Access Point received it'),
}, 'An inbound Peppol invoice arrived for the company (its own read-only copy, invoice_id).');

export const InvoiceRejectedData = Data({
  invoice_id: Uuid,
  invoice_number: Type.String(),
  company_id: Uuid,
  message_id: Type.String({ description: 'Peppol SBDH instance identifier of the rejected send' }),
  reason: Type.String(),
  findings: Type.Array(Finding, { description: 'the receiver\'s findings (rule, message); may be empty' }),
  rejected_at: DateTime('when the rejection was recorded'),
}, 'The receiving side returned a rejection (validation, addressing, business rule). The Peppol leg failed: the invoice is `failed` and may be corrected (PUT) and sent again.');

/** The nil UUID: test.ping concerns no invoice, and data.invoice_id is always present and a UUID. */
export const NO_INVOICE_ID = '00000000-0000-0000-0000-000000000000';

export const TestPingData = Data({
  invoice_id: Type.Literal(NO_INVOICE_ID, { description: 'always the nil UUID: a ping concerns no invoice' }),
  webhook_id: Uuid,
  requested_at: DateTime('when the test route was called'),
}, 'Fired by POST /connect/webhooks/{webhook_id}/test to that endpoint only, whatever its events list.');

// ---- envelopes ----

export const RESOURCE_TYPES = ['invoice', 'c5_submission', 'sapi_client', 'user'] as const;

export function svcEnvelope<T extends string, D extends TSchema>(type: T, data: D) {
  return Type.Object({
    schema: Type.Literal('svc.event.v1'),
    id: SvcEventId,
    type: Type.Literal(type),
    occurred_at: DateTime('when it happened'),
    organisation_id: Uuid,
    workspace_id: nullable(Uuid),
    resource: Type.Object({
      type: Type.Union(RESOURCE_TYPES.map((t) => Type.Literal(t)), {
        description: '`invoice`, `c5_submission` for a SAPI-SK document with no mirror invoice, `sapi_client` or `user` for a lock-out',
      }),
      id: Type.String({ description: 'the invoice id, the provider document id of a c5_submission, the SAPI-SK client_id, or the user id' }),
    }, { additionalProperties: false }),
    data,
  }, { additionalProperties: false, description: `svc.event.v1 envelope of ${type}` });
}

export function legacyEnvelope<E extends string, D extends TSchema>(event: E, data: D) {
  return Type.Object({
    id: LegacyEventId,
    event: Type.Literal(event),
    created_at: DateTime('ISO 8601 with its zone'),
    data,
  }, { additionalProperties: false, description: `legacy envelope of ${event}` });
}

/** The body of each emitted event type, as sent. */
export const WEBHOOK_EVENT_SCHEMAS = {
  'invoice.created': svcEnvelope('invoice.created', InvoiceCreatedData),
  'invoice.validated': svcEnvelope('invoice.validated', InvoiceValidatedData),
  'invoice.validation_failed': svcEnvelope('invoice.validation_failed', InvoiceValidationFailedData),
  'invoice.queued': svcEnvelope('invoice.queued', InvoiceQueuedData),
  'invoice.fs_acknowledged': svcEnvelope('invoice.fs_acknowledged', FsAcknowledgedData),
  'invoice.fs_rejected': svcEnvelope('invoice.fs_rejected', FsRejectedData),
  'sapi_client.locked_out': svcEnvelope('sapi_client.locked_out', SapiClientLockedOutData),
  'user.locked_out': svcEnvelope('user.locked_out', UserLockedOutData),
  'invoice.delivered': legacyEnvelope('invoice.delivered', InvoiceDeliveredData),
  'invoice.received': legacyEnvelope('invoice.received', InvoiceReceivedData),
  'invoice.rejected': legacyEnvelope('invoice.rejected', InvoiceRejectedData),
  'test.ping': legacyEnvelope('test.ping', TestPingData),
} as const;

export type WebhookEventSchemas = typeof WEBHOOK_EVENT_SCHEMAS;
export type WebhookBody<T extends keyof WebhookEventSchemas> = Static<WebhookEventSchemas[T]>;
export type WebhookData<T extends keyof WebhookEventSchemas> = WebhookBody<T>['data'];
