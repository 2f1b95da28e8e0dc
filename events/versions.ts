import type { ApprovalEvent } from './approvals.ts';
import type { BulkImportEvent } from './bulk-import.ts';
import type { ValueClaimed } from './claims.ts';
import type { CreditNoteCreated, CreditNoteEvent } from './credit-notes.ts';
import type { CustomerEvent } from './customers.ts';
import type { As4MessageReceived, DeliveryEvent, InvoiceReceived } from './delivery.ts';
import type { MlsEvent } from './mls.ts';
import type { IdempotencyEvent } from './idempotency.ts';
import type { CredentialCheckFailed, LoginAttemptEvent, OAuthClientEvent, RefreshFamilyEvent, SignInLockedOut, UserCredentialsEvent } from './identity.ts';
import type { InvoiceEvent, InvoiceNumberClaimed, InvoiceNumberReserved, InvoiceValidationFailed } from './invoices.ts';
import type { PaymentEvent } from './payments.ts';
import type { PeppolReportEvent } from './reporting.ts';
import type { SapiClientStreamEvent, SapiTokenFamilyEvent } from './sapi-clients.ts';
import type { SapiInboxEvent } from './sapi-inbox.ts';
import type { SapiDocumentEvent } from './sapi-documents.ts';
import type { ApiKeyEvent, CompanyEvent, OrganisationEvent, SapiClientEvent } from './tenancy.ts';
import type { UsageEvent } from './usage.ts';
import type { WebhookEvent } from './webhooks.ts';

/** Every event this service has ever stored. */
export type StoredEvent =
  | ValueClaimed
  | CustomerEvent
  | DeliveryEvent
  | InvoiceReceived
  | As4MessageReceived
  | MlsEvent
  | IdempotencyEvent
  | RefreshFamilyEvent
  | UserCredentialsEvent
  | LoginAttemptEvent
  | CredentialCheckFailed
  | SignInLockedOut
  | OAuthClientEvent
  | InvoiceEvent
  | CreditNoteEvent
  | CreditNoteCreated
  | PaymentEvent
  | ApprovalEvent
  | InvoiceNumberReserved
  | InvoiceNumberClaimed
  | InvoiceValidationFailed
  | OrganisationEvent
  | CompanyEvent
  | ApiKeyEvent
  | SapiClientEvent
  | UsageEvent
  | WebhookEvent
  | SapiClientStreamEvent
  | SapiTokenFamilyEvent
  | SapiInboxEvent
  | SapiDocumentEvent
  | BulkImportEvent
  | PeppolReportEvent;

export type StoredEventType = StoredEvent['type'];

/**
 * The payload version of each event type: the shape its type in `events/` declares. An event's
 * version is `version` in its metadata; a record without one is read as version 1 (every event
 * of a type still at version 1, and those stored before their type changed). test/contract/event-fixtures.test.ts reads a stored
 * example of each type.
 *
 * A breaking change (a field renamed, removed, retyped, or newly required) never edits a v1 shape.
 * Instead: declare the new shape beside the old (`InvoiceCreatedV1` keeps the old data), bump the
 * type here to 2, add the upcaster v1 → v2 to `upcasters.ts`, and add a v2 fixture next to the v1
 * one (both must keep parsing). The event store does the rest on every adapter: it writes
 * `version: 2` into new events' metadata and upcasts every read, so deciders, projectors and
 * reactors see only the v2 shape. An added optional field is not breaking and stays version 1.
 */
export const EVENT_VERSIONS = {
  ValueClaimed: 1,
  CustomerRegistered: 1,
  CustomerArchived: 1,
  InvoiceQueued: 1,
  InvoiceAuditEntryRecorded: 1,
  DeliveryAttemptFailed: 1,
  PeppolMessageSent: 2,
  PeppolDeliveryConfirmed: 1,
  PeppolDeliveryFailed: 1,
  PeppolMlsReceived: 1,
  FsCopySubmitted: 1,
  FsCopyAcknowledged: 1,
  FsCopyRejected: 1,
  FsFilingFailed: 1,
  InvoiceMarkedSent: 1,
  InvoiceReceived: 1,
  As4MessageReceived: 1,
  MlsIssued: 1,
  MlsSent: 1,
  MlsSendFailed: 1,
  MlsReceived: 1,
  IdempotencyKeyClaimed: 1,
  IdempotentRequestCompleted: 1,
  IdempotencyKeyReleased: 1,
  RefreshFamilyStarted: 1,
  RefreshTokenRotated: 1,
  RefreshFamilyRevoked: 1,
  PasswordChanged: 1,
  TotpEnrolmentStarted: 1,
  TotpSecretIssued: 1,
  TotpEnabled: 1,
  TotpDisabled: 1,
  TotpCodeUsed: 1,
  LoginFailed: 1,
  LoginSucceeded: 1,
  CredentialCheckFailed: 1,
  SignInLockedOut: 1,
  OAuthClientIssued: 1,
  OAuthClientRevoked: 1,
  InvoiceCreated: 1,
  InvoiceUpdated: 1,
  InvoiceValidated: 1,
  InvoiceValidationFailed: 1,
  InvoiceNumberReserved: 1,
  InvoiceNumberClaimed: 1,
  OrganisationCreated: 1,
  WorkspaceCreated: 1,
  UserAdded: 1,
  CompanyRegistered: 1,
  CompanyProfileUpdated: 1,
  ApiKeyIssued: 1,
  ApiKeyUpdated: 1,
  ApiKeyRevoked: 1,
  SapiClientIssued: 1,
  InvoiceCounted: 1,
  InvoiceCountReleased: 1,
  CreditNoteReserved: 1,
  CreditNoteCounted: 1,
  CreditNoteIssued: 1,
  CreditNoteReleased: 1,
  InvoiceVoided: 1,
  CreditNoteCreated: 1,
  PaymentRecorded: 1,
  PaymentReversed: 1,
  InvoiceApprovalRequested: 1,
  InvoiceApproved: 1,
  InvoiceApprovalRejected: 1,
  InvoiceApprovalVoided: 1,
  WebhookEndpointRegistered: 1,
  WebhookEndpointDeactivated: 1,
  WebhookSecretRotated: 1,
  WebhookTestRequested: 1,
  WebhookEndpointUpdated: 1,
  OrganisationPlanChanged: 1,
  SapiClientSecretRotated: 1,
  SapiClientAllowlistSet: 1,
  SapiClientDisabled: 1,
  SapiClientEnabled: 1,
  SapiClientAuthenticationFailed: 1,
  SapiClientLocked: 1,
  SapiClientLockedOut: 1,
  SapiTokenFamilyStarted: 1,
  SapiTokenRenewed: 1,
  SapiTokenFamilyRevoked: 1,
  SapiInboxDocumentReceived: 1,
  SapiInboxDocumentAcknowledged: 1,
  SapiDocumentAccepted: 1,
  SapiDocumentProcessing: 1,
  SapiDeliveryAttemptFailed: 1,
  SapiDocumentSent: 2,
  SapiDocumentFailed: 1,
  SapiDocumentMlsReceived: 1,
  SapiFsSubmitted: 1,
  SapiFsAcknowledged: 1,
  SapiFsRejected: 1,
  SapiFsFailed: 1,
  BulkImportRequested: 1,
  BulkImportFileStored: 1,
  BulkImportProgressed: 1,
  BulkImportCompleted: 1,
  BulkImportFailed: 1,
  PeppolReportBuilt: 1,
  PeppolReportSending: 1,
  PeppolReportSendFailed: 1,
  PeppolReportSent: 1,
  PeppolReportMlsReceived: 1,
} as const satisfies Record<StoredEventType, number>;

/** Every event type name, as the map lists them. */
export const STORED_EVENT_TYPES = Object.keys(EVENT_VERSIONS) as StoredEventType[];
