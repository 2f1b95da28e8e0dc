import type { CreditNoteCreated } from '../../../../events/credit-notes.ts';
import type {
  FsCopyAcknowledged, FsCopyRejected, FsRejectionReasons, InvoiceQueued, InvoiceReceived, PeppolDeliveryConfirmed, PeppolDeliveryFailed,
} from '../../../../events/delivery.ts';
import type { InvoiceCreated, InvoiceValidated, InvoiceValidationFailed } from '../../../../events/invoices.ts';
import type { SignInLockedOut } from '../../../../events/identity.ts';
import type { SapiClientLockedOut } from '../../../../events/sapi-clients.ts';
import { NO_INVOICE_ID, type RESOURCE_TYPES, type WebhookData } from '../../../../schemas/webhook-events.ts';
import type { RecordedEvent } from '../../../platform/eventstore/port.ts';
import { domainEvent } from '../../../platform/handling/read-and-fold.ts';
import { WEBHOOK_CATALOGUE, type EmittedWebhookEventType } from './catalogue.ts';
import { legacyEventId, svcEventId } from './ids.ts';
import { sourceInvoiceId, type InvoiceFacts } from './invoice-facts.ts';

/** One webhook event, ready to fan out: who it concerns, and the exact bytes to sign and send. */
export interface WebhookEventOut {
  id: string;
  type: string;
  envelope: 'svc.event.v1' | 'legacy';
  organisation_id: string;
  /** the company whose endpoints (and whose workspace's) it goes to; null for test.ping */
  company_id: string | null;
  workspace_id: string | null;
  occurred_at: string;
  /** compact UTF-8 JSON, exactly the bytes to sign and send */
  body: string;
}

type SvcType = { [T in EmittedWebhookEventType]: (typeof WEBHOOK_CATALOGUE)[T]['envelope'] extends 'svc.event.v1' ? T : never }[EmittedWebhookEventType];
type LegacyType = Exclude<EmittedWebhookEventType, SvcType>;

interface Scope {
  organisation_id: string;
  company_id: string | null;
  workspace_id: string | null;
}

/** ISO 8601 in UTC with its zone (Z), whatever form the source time had. */
const iso = (time: string): string => new Date(time).toISOString();

// JSON.stringify writes keys in insertion order and no whitespace: each literal below is the wire order.
function svcEvent<T extends SvcType>(
  sourceId: string, type: T, at: string, scope: Scope, resource: { type: (typeof RESOURCE_TYPES)[number]; id: string }, data: WebhookData<T>,
): WebhookEventOut {
  const id = svcEventId(sourceId, type);
  const occurred_at = iso(at);
  const body = { schema: 'svc.event.v1', id, type, occurred_at, organisation_id: scope.organisation_id, workspace_id: scope.workspace_id, resource, data };
  return { id, type, envelope: 'svc.event.v1', ...scope, occurred_at, body: JSON.stringify(body) };
}

function legacyEvent<T extends LegacyType>(sourceId: string, event: T, at: string, scope: Scope, data: WebhookData<T>): WebhookEventOut {
  const id = legacyEventId(sourceId, event);
  const created_at = iso(at);
  return { id, type: event, envelope: 'legacy', ...scope, occurred_at: created_at, body: JSON.stringify({ id, event, created_at, data }) };
}

const scopeOf = (facts: InvoiceFacts): Scope => ({ organisation_id: facts.organisation_id, company_id: facts.company_id, workspace_id: facts.workspace_id });

function numberOf(facts: InvoiceFacts): string {
  if (facts.invoice_number === null) throw new Error(`invoice ${facts.invoice_id} has no number`); // every invoice of ours has one
  return facts.invoice_number;
}

/** What an FS verdict webhook concerns: one company's copy of an invoice, or a SAPI-SK document without a mirror invoice. */
interface FsVerdictSubject extends Scope {
  /** null for a SAPI-SK document with no mirror invoice: resource is then the c5_submission */
  invoice_id: string | null;
  invoice_number: string | null;
  direction: 'sent' | 'received';
  supplier_vat_id: string | null;
  provider_document_id: string | null;
  reporter_role: 'C2' | 'C3';
}

interface FsVerdictOutcome {
  state: 'acknowledged' | 'rejected';
  tdd_uuid: string;
  mls_response_code: string;
  /** when FS decided */
  at: string;
  reasons: FsRejectionReasons | null;
}

/**
 * invoice.fs_acknowledged or invoice.fs_rejected for one filed copy. `sourceId` is the id of the
 * event that recorded the verdict (the event id derives from it). A subject without invoice_id is
 * a `c5_submission` resource named by its provider document id.
 */
export function fsVerdictEvent(sourceId: string, subject: FsVerdictSubject, verdict: FsVerdictOutcome): WebhookEventOut {
  const resourceId = subject.invoice_id ?? subject.provider_document_id;
  if (resourceId === null) throw new Error('an FS verdict concerns an invoice or a provider document');
  const resource = { type: subject.invoice_id === null ? 'c5_submission' as const : 'invoice' as const, id: resourceId };
  const acknowledged = verdict.state === 'acknowledged';
  const common = {
    invoice_id: subject.invoice_id, invoice_number: subject.invoice_number, direction: subject.direction, supplier_vat_id: subject.supplier_vat_id,
    provider_document_id: subject.provider_document_id, reporter_role: subject.reporter_role,
  };
  const scope = { organisation_id: subject.organisation_id, company_id: subject.company_id, workspace_id: subject.workspace_id };
  return acknowledged
    ? svcEvent(sourceId, 'invoice.fs_acknowledged', verdict.at, scope, resource, {
      ...common, state: 'acknowledged', tdd_uuid: verdict.tdd_uuid, mls_response_code: verdict.mls_response_code,
      acknowledged_at: iso(verdict.at), rejected_at: null, reasons: null,
    })
    : svcEvent(sourceId, 'invoice.fs_rejected', verdict.at, scope, resource, {
      ...common, state: 'rejected', tdd_uuid: verdict.tdd_uuid, mls_response_code: verdict.mls_response_code,
      acknowledged_at: null, rejected_at: iso(verdict.at), reasons: verdict.reasons ?? { description: 'rejected', issues: [] },
    });
}

type WebhookSourceEvent =
  | InvoiceCreated | CreditNoteCreated | InvoiceValidated | InvoiceValidationFailed | InvoiceQueued
  | PeppolDeliveryConfirmed | InvoiceReceived | PeppolDeliveryFailed | FsCopyAcknowledged | FsCopyRejected;

/**
 * The webhook events a domain event raises (none for most), for the invoice it belongs to.
 * `facts` must be that invoice's (invoiceFacts of its stream as of `source`, so a repeat builds
 * the same body). Ids derive from the source event's id: the same source always gives the same
 * events, byte for byte.
 */
export function webhookEventsOf(source: RecordedEvent, facts: InvoiceFacts): WebhookEventOut[] {
  const invoiceId = sourceInvoiceId(source);
  if (invoiceId === null) return [];
  if (invoiceId !== facts.invoice_id) throw new Error(`${source.type} ${source.id} concerns invoice ${invoiceId}, not ${facts.invoice_id}`);
  const event = domainEvent<WebhookSourceEvent>(source);
  const scope = scopeOf(facts);
  const resource = { type: 'invoice' as const, id: facts.invoice_id };
  const head = () => ({ invoice_id: facts.invoice_id, invoice_number: numberOf(facts), company_id: facts.company_id });
  switch (event.type) {
    case 'InvoiceCreated':
    case 'CreditNoteCreated':
      return [svcEvent(source.id, 'invoice.created', event.data.created_at, scope, resource, {
        ...head(), invoice_type: facts.invoice_type, status: 'draft', credited_invoice_id: facts.credited_invoice_id, issue_date: facts.issue_date,
        currency_code: facts.currency_code, buyer_name: facts.buyer_name, buyer_vat_id: facts.buyer_vat_id, total_net: facts.total_net,
        total_vat: facts.total_vat, total_gross: facts.total_gross, created_at: iso(event.data.created_at),
      })];
    case 'InvoiceValidated':
      return [svcEvent(source.id, 'invoice.validated', event.data.validated_at, scope, resource, {
        ...head(), status: 'validated', validated_by: event.data.validated_by, validated_at: iso(event.data.validated_at),
      })];
    case 'InvoiceValidationFailed': {
      const d = event.data;
      return [svcEvent(source.id, 'invoice.validation_failed', d.failed_at, scope, resource, {
        ...head(), status: facts.status, business_rules_valid: d.business_rules_valid, xsd_valid: d.xsd_valid, peppol_valid: d.peppol_valid,
        slovak_valid: d.slovak_valid, error_count: d.error_count, errors: d.errors.map((e) => ({ rule: e.rule, message: e.message, location: e.location })),
        failed_at: iso(d.failed_at),
      })];
    }
    case 'InvoiceQueued':
      return [svcEvent(source.id, 'invoice.queued', event.data.queued_at, scope, resource, {
        ...head(), status: 'queued', message_id: event.data.peppol_message_id, receiver_participant_id: event.data.receiver_participant_id,
        queued_at: iso(event.data.queued_at),
      })];
    case 'PeppolDeliveryConfirmed':
      return [legacyEvent(source.id, 'invoice.delivered', event.data.delivered_at, scope, {
        ...head(), message_id: event.data.peppol_message_id, delivered_at: iso(event.data.delivered_at),
      })];
    case 'InvoiceReceived': {
      const d = event.data;
      return [legacyEvent(source.id, 'invoice.received', d.received_at, scope, {
        invoice_id: d.invoice_id, source: d.source, invoice_number: d.invoice_number, supplier_vat_id: d.supplier_vat_id || null,
        message_id: d.peppol_message_id, provider_document_id: d.provider_document_id, company_id: d.company_id, received_at: iso(d.received_at),
      })];
    }
    case 'PeppolDeliveryFailed': {
      const d = event.data;
      if (d.rejected_by_receiver !== true) return []; // a give-up or our own refusal: the invoice is failed, nobody rejected it
      return [legacyEvent(source.id, 'invoice.rejected', d.failed_at, scope, {
        ...head(), message_id: d.peppol_message_id, reason: d.reason, findings: d.findings.map((f) => ({ rule: f.rule, message: f.message })),
        rejected_at: iso(d.failed_at),
      })];
    }
    case 'FsCopyAcknowledged':
    case 'FsCopyRejected': {
      const subject: FsVerdictSubject = {
        ...scope, invoice_id: facts.invoice_id, invoice_number: facts.invoice_number, direction: facts.direction, supplier_vat_id: facts.supplier_vat_id,
        provider_document_id: facts.provider_document_id, reporter_role: facts.reporter_role ?? (facts.direction === 'sent' ? 'C2' : 'C3'),
      };
      const d = event.data;
      return [fsVerdictEvent(source.id, subject, event.type === 'FsCopyAcknowledged'
        ? { state: 'acknowledged', tdd_uuid: d.tdd_uuid, mls_response_code: d.mls_response_code, at: event.data.acknowledged_at, reasons: null }
        : { state: 'rejected', tdd_uuid: d.tdd_uuid, mls_response_code: d.mls_response_code, at: event.data.rejected_at, reasons: event.data.reasons })];
    }
    default:
      return [];
  }
}

/**
 * sapi_client.locked_out, from the lock as decided on the client's stream. `workspaceId` is the
 * client's company's (its CompanyRegistered fixes it), so the workspace's endpoints hear it too.
 */
export function sapiClientLockedOutEvent(sourceId: string, lock: SapiClientLockedOut['data'], workspaceId: string | null): WebhookEventOut {
  const scope = { organisation_id: lock.organisation_id, company_id: lock.company_id, workspace_id: workspaceId };
  return svcEvent(sourceId, 'sapi_client.locked_out', lock.locked_at, scope, { type: 'sapi_client', id: lock.client_id }, {
    sapi_client_id: lock.client_id, company_id: lock.company_id, failures: lock.failures, ips: lock.ips, locked_at: iso(lock.locked_at),
    locked_until: iso(lock.locked_until),
  });
}

/** user.locked_out: a user belongs to the organisation, no workspace, so only organisation-wide endpoints hear it. */
export function userLockedOutEvent(sourceId: string, lock: SignInLockedOut['data']): WebhookEventOut {
  const scope = { organisation_id: lock.organisation_id, company_id: null, workspace_id: null };
  return svcEvent(sourceId, 'user.locked_out', lock.locked_at, scope, { type: 'user', id: lock.user_id }, {
    user_id: lock.user_id, email: lock.email, scope: lock.scope, failures: lock.failures, ips: lock.ips, locked_at: iso(lock.locked_at),
    locked_until: iso(lock.locked_until),
  });
}

/**
 * The synthetic test.ping the test route fires at one endpoint. data.invoice_id is the nil UUID:
 * the spec says data always holds invoice_id, and a ping concerns no invoice; the nil UUID keeps
 * it a UUID for consumers that parse it as one, and can never name a real invoice.
 */
export function testPingEvent(args: { ping_id: string; organisation_id: string; endpoint_id: string; requested_at: string }): WebhookEventOut {
  return legacyEvent(args.ping_id, 'test.ping', args.requested_at, { organisation_id: args.organisation_id, company_id: null, workspace_id: null }, {
    invoice_id: NO_INVOICE_ID, webhook_id: args.endpoint_id, requested_at: iso(args.requested_at),
  });
}
