import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { EventMetadata, EventStore, NewEvent, StreamWrite } from '../src/platform/eventstore/port.ts';
import { seededRandom as prng } from '../src/platform/seeded-random.ts';

/*
 * A realistic history for the rebuild bench: many organisations ("worlds"), each with the events
 * the real command paths write (payloads from test/fixtures/events, recorded from the service,
 * with fresh ids): tenancy, sign-ins and sessions, API keys, SAPI clients and token families,
 * webhook endpoints, customers, invoices through edit, validation, approval, queueing, Peppol and
 * FS delivery, credit notes against them, payments, received invoices, SAPI documents and inbox,
 * bulk imports; and the events no read model reads (number reservations, usage counts, audit
 * entries, idempotency claims), which a rebuild must skip. Streams are appended in rounds (the
 * r-th event of every stream of a few worlds together), so one invoice's events lie thousands of
 * events apart, as they do in a store that lived for months, and a batch rarely holds a whole stream.
 */

const FIXTURES = new URL('../test/fixtures/events/', import.meta.url).pathname;
const cache = new Map<string, Record<string, unknown>>();
const fixture = (type: string): Record<string, unknown> => {
  let data = cache.get(type);
  if (!data) {
    data = (JSON.parse(readFileSync(`${FIXTURES}${type}.v1.json`, 'utf8')) as { data: Record<string, unknown> }).data;
    cache.set(type, data);
  }
  return data;
};

interface Stream {
  id: string;
  events: NewEvent[];
}

export interface WorldSize {
  customers: number;
  invoices: number;
  received: number;
  sapiDocuments: number;
  inbox: number;
  sessions: number;
}

class World {
  readonly streams: Stream[] = [];
  readonly org = randomUUID();
  readonly workspace = randomUUID();
  readonly company = randomUUID();
  readonly users = [randomUUID(), randomUUID(), randomUUID()];
  private at = Date.UTC(2026, 0, 5, 8);

  constructor(private readonly random: () => number) {}

  stream(id: string): Stream {
    const stream = { id, events: [] };
    this.streams.push(stream);
    return stream;
  }

  /** The fixture of `type` with `fields` over it, as the command path would write it. */
  add(stream: Stream, type: string, fields: Record<string, unknown>): void {
    this.at += 1000 + Math.floor(this.random() * 60_000);
    const metadata: EventMetadata = {
      causationId: randomUUID(), correlationId: randomUUID(),
      actor: { type: 'user', id: this.users[0] as string, organisationId: this.org },
    };
    stream.events.push({ id: randomUUID(), type, data: { ...fixture(type), ...fields }, metadata });
  }

  iso(): string {
    return new Date(this.at).toISOString();
  }

  chance(p: number): boolean {
    return this.random() < p;
  }
}

/** One organisation's history. */
function world(random: () => number, size: WorldSize): Stream[] {
  const w = new World(random);
  const { org, workspace, company } = w;
  const tenancy = w.stream(`organisation-${org}`);
  w.add(tenancy, 'OrganisationCreated', { organisation_id: org, name: `Org ${org.slice(0, 8)}`, created_at: w.iso() });
  w.add(tenancy, 'WorkspaceCreated', { organisation_id: org, workspace_id: workspace, created_at: w.iso() });
  w.users.forEach((user, i) => w.add(tenancy, 'UserAdded', { organisation_id: org, user_id: user, email: `user${i}-${org}@example.sk`, added_at: w.iso() }));
  w.add(tenancy, 'OrganisationPlanChanged', { organisation_id: org, plan: 'business', changed_at: w.iso() });
  w.add(w.stream(`company-${company}`), 'CompanyRegistered', { company_id: company, organisation_id: org, workspace_id: workspace, registered_at: w.iso() });

  // identity: an OAuth client, credential changes, and sign-ins with their sessions
  const client = `oc_${randomBytes(12).toString('hex')}`;
  const oauth = w.stream(`oauth_client-${client}`);
  w.add(oauth, 'OAuthClientIssued', { client_id: client, organisation_id: org, issued_at: w.iso() });
  if (w.chance(0.5)) w.add(oauth, 'OAuthClientRevoked', { client_id: client, organisation_id: org, revoked_at: w.iso() });
  for (const user of w.users) {
    const credentials = w.stream(`user_credentials-${user}`);
    w.add(credentials, 'PasswordChanged', { user_id: user, changed_at: w.iso() });
    w.add(credentials, 'TotpSecretIssued', { user_id: user, issued_at: w.iso() });
    w.add(credentials, 'TotpEnabled', { user_id: user, enabled_at: w.iso() });
  }
  for (let s = 0; s < size.sessions; s++) {
    const user = w.users[s % w.users.length] as string;
    const security = w.stream(`security_events-${randomUUID()}`);
    if (w.chance(0.3)) w.add(security, 'LoginFailed', { organisation_id: org, user_id: user, email: `user-${org}@example.sk`, at: w.iso() });
    if (w.chance(0.1)) w.add(security, 'CredentialCheckFailed', { organisation_id: org, user_id: user, at: w.iso() });
    w.add(security, 'LoginSucceeded', { organisation_id: org, user_id: user, email: `user-${org}@example.sk`, at: w.iso() });
    const family = randomUUID();
    const session = w.stream(`refresh_family-${family}`);
    w.add(session, 'RefreshFamilyStarted', { family_id: family, user_id: user, organisation_id: org, started_at: w.iso() });
    w.add(session, 'RefreshTokenRotated', { family_id: family, rotated_at: w.iso() });
    w.add(session, 'RefreshTokenRotated', { family_id: family, rotated_at: w.iso() });
    if (w.chance(0.6)) w.add(session, 'RefreshFamilyRevoked', { family_id: family, user_id: user, organisation_id: org, reason: w.chance(0.1) ? 'reuse_detected' : 'logout', revoked_at: w.iso() });
  }

  // API keys, SAPI credentials and token families, webhook endpoints
  for (let k = 0; k < 3; k++) {
    const key = randomUUID();
    const stream = w.stream(`api_key-${key}`);
    w.add(stream, 'ApiKeyIssued', { api_key_id: key, organisation_id: org, key_hash: randomBytes(32).toString('hex'), issued_at: w.iso() });
    w.add(stream, 'ApiKeyUpdated', { api_key_id: key, name: `key ${k}`, updated_at: w.iso() });
    if (k === 0) w.add(stream, 'ApiKeyRevoked', { api_key_id: key, revoked_at: w.iso() });
  }
  const sapiClient = `sapi_${randomBytes(12).toString('hex')}`;
  const sapi = w.stream(`sapi_client-${sapiClient}`);
  w.add(sapi, 'SapiClientIssued', { client_id: sapiClient, organisation_id: org, company_id: company, issued_at: w.iso() });
  for (let f = 0; f < 4; f++) {
    const family = randomUUID();
    const tokens = w.stream(`sapi_token_family-${family}`);
    w.add(tokens, 'SapiTokenFamilyStarted', { family_id: family, client_id: sapiClient, organisation_id: org, started_at: w.iso() });
    w.add(tokens, 'SapiTokenRenewed', { family_id: family, client_id: sapiClient, renewed_at: w.iso() });
    w.add(tokens, 'SapiTokenRenewed', { family_id: family, client_id: sapiClient, renewed_at: w.iso() });
    if (f === 3) w.add(tokens, 'SapiTokenFamilyRevoked', { family_id: family, client_id: sapiClient, revoked_at: w.iso() });
  }
  w.add(sapi, 'SapiClientAllowlistSet', { client_id: sapiClient, set_at: w.iso() });
  w.add(sapi, 'SapiClientAuthenticationFailed', { client_id: sapiClient, failed_at: w.iso() });
  w.add(sapi, 'SapiClientSecretRotated', { client_id: sapiClient, rotated_at: w.iso() });
  w.add(sapi, 'SapiClientDisabled', { client_id: sapiClient, disabled_at: w.iso() });
  w.add(sapi, 'SapiClientEnabled', { client_id: sapiClient, enabled_at: w.iso() });
  w.add(sapi, 'SapiClientLocked', { client_id: sapiClient, locked_until: w.iso() });
  for (let e = 0; e < 2; e++) {
    const endpoint = randomUUID();
    const hooks = w.stream(`webhooks-${endpoint}`);
    w.add(hooks, 'WebhookEndpointRegistered', { endpoint_id: endpoint, organisation_id: org, workspace_id: workspace, registered_at: w.iso() });
    w.add(hooks, 'WebhookTestRequested', { endpoint_id: endpoint, organisation_id: org, ping_id: randomUUID(), requested_at: w.iso() });
    w.add(hooks, 'WebhookSecretRotated', { endpoint_id: endpoint, secret_ciphertext: randomBytes(40).toString('base64'), rotated_at: w.iso() });
    if (e === 1) w.add(hooks, 'WebhookEndpointDeactivated', { endpoint_id: endpoint, deactivated_at: w.iso() });
  }

  // customers
  const customers: string[] = [];
  for (let c = 0; c < size.customers; c++) {
    const id = randomUUID();
    customers.push(id);
    const stream = w.stream(`customer-${id}`);
    w.add(stream, 'CustomerRegistered', { customer_id: id, organisation_id: org, company_id: company, name: `Odberateľ ${c} s.r.o.`, registered_at: w.iso() });
    if (w.chance(0.1)) w.add(stream, 'CustomerArchived', { customer_id: id, archived_at: w.iso() });
  }

  // invoices: created, edited, validated, approved, queued, delivered over Peppol and filed with FS; credit notes, payments
  const created = fixture('InvoiceCreated') as { content: Record<string, unknown> };
  const series = w.stream(`invoice_series-${workspace}`);
  const usage = w.stream(`usage-${org}`);
  for (let i = 0; i < size.invoices; i++) {
    const id = randomUUID();
    const number = `2026${String(i + 1).padStart(6, '0')}`;
    const content = { ...created.content, invoice_number: number, customer_id: customers[i % Math.max(1, customers.length)] ?? null };
    const invoice = w.stream(`invoice-${id}`);
    w.add(series, 'InvoiceNumberReserved', { invoice_id: id, seq: i + 1, invoice_number: number, reserved_at: w.iso() });
    w.add(invoice, 'InvoiceCreated', { invoice_id: id, organisation_id: org, company_id: company, workspace_id: workspace, content, created_at: w.iso() });
    w.add(usage, 'InvoiceCounted', { organisation_id: org, invoice_id: id, count: i + 1, counted_at: w.iso() });
    if (w.chance(0.5)) w.add(invoice, 'InvoiceUpdated', { invoice_id: id, content: { ...content, note: 'upravené' }, updated_at: w.iso() });
    w.add(invoice, 'InvoiceValidated', { invoice_id: id, validated_at: w.iso() });
    if (w.chance(0.3)) {
      const approval = randomUUID();
      w.add(invoice, 'InvoiceApprovalRequested', { invoice_id: id, approval_id: approval, requested_at: w.iso() });
      if (w.chance(0.2)) {
        w.add(invoice, 'InvoiceApprovalRejected', { invoice_id: id, approval_id: approval, reviewed_at: w.iso() });
        continue;
      }
      w.add(invoice, 'InvoiceApproved', { invoice_id: id, approval_id: approval, reviewed_at: w.iso() });
    }
    const message = randomUUID();
    const submission = randomUUID();
    w.add(invoice, 'InvoiceQueued', { invoice_id: id, peppol_message_id: message, queued_at: w.iso() });
    w.add(invoice, 'FsCopySubmitted', { invoice_id: id, fs_submission_id: submission, submitted_at: w.iso() });
    if (w.chance(0.05)) w.add(invoice, 'DeliveryAttemptFailed', { invoice_id: id, failed_at: w.iso() });
    w.add(invoice, 'PeppolMessageSent', { invoice_id: id, peppol_message_id: message, sent_at: w.iso(), as4: null });
    w.add(invoice, 'FsCopyAcknowledged', { invoice_id: id, fs_submission_id: submission, acknowledged_at: w.iso() });
    w.add(invoice, 'PeppolDeliveryConfirmed', { invoice_id: id, peppol_message_id: message, delivered_at: w.iso() });
    w.add(invoice, 'InvoiceAuditEntryRecorded', { invoice_id: id, at: w.iso() });
    const payments = w.stream(`payments-${id}`);
    w.add(payments, 'PaymentRecorded', { payment_id: randomUUID(), document_id: id, organisation_id: org, company_id: company, recorded_at: w.iso() });
    if (w.chance(0.4)) {
      const note = randomUUID();
      const credit = w.stream(`invoice-${note}`);
      w.add(invoice, 'CreditNoteReserved', { invoice_id: id, credit_note_id: note, credit_note_number: `D${number}`, reserved_at: w.iso() });
      w.add(credit, 'CreditNoteCreated', {
        credit_note_id: note, organisation_id: org, company_id: company, workspace_id: workspace,
        credited_invoice: { invoice_id: id, invoice_number: number, issue_date: '2026-01-05' }, created_at: w.iso(),
      });
      w.add(invoice, 'CreditNoteCounted', { invoice_id: id, credit_note_id: note, counted_at: w.iso() });
      w.add(credit, 'InvoiceQueued', { invoice_id: note, peppol_message_id: randomUUID(), queued_at: w.iso() });
      if (w.chance(0.1)) w.add(invoice, 'CreditNoteReleased', { invoice_id: id, credit_note_id: note, released_at: w.iso() });
      else w.add(invoice, 'CreditNoteIssued', { invoice_id: id, credit_note_id: note, issued_at: w.iso() });
      if (w.chance(0.1)) w.add(invoice, 'InvoiceVoided', { invoice_id: id, credit_note_id: note, voided_at: w.iso() });
      if (w.chance(0.3)) w.add(payments, 'PaymentReversed', { payment_id: randomUUID(), document_id: id, reversed_at: w.iso() });
    }
  }
  for (let r = 0; r < size.received; r++) {
    const id = randomUUID();
    w.add(w.stream(`invoice-${id}`), 'InvoiceReceived', {
      invoice_id: id, organisation_id: org, company_id: company, workspace_id: workspace, peppol_message_id: randomUUID(),
      provider_document_id: `svc_${randomBytes(8).toString('hex')}`, received_at: w.iso(),
    });
  }

  // SAPI-SK: documents sent through it, and the inbox
  for (let d = 0; d < size.sapiDocuments; d++) {
    const id = randomUUID();
    const provider = `svc_sapi_doc_${id.replaceAll('-', '')}`;
    const message = randomUUID();
    const doc = w.stream(`sapi_document-${id}`);
    w.add(doc, 'SapiDocumentAccepted', { document_id: id, provider_document_id: provider, client_id: sapiClient, organisation_id: org, company_id: company, peppol_message_id: message, accepted_at: w.iso() });
    w.add(doc, 'SapiDocumentProcessing', { document_id: id, started_at: w.iso() });
    w.add(doc, 'SapiFsSubmitted', { document_id: id, provider_document_id: provider, fs_submission_id: randomUUID(), submitted_at: w.iso() });
    w.add(doc, 'SapiDocumentSent', { document_id: id, peppol_message_id: message, sent_at: w.iso(), as4: null });
    w.add(doc, 'SapiFsAcknowledged', { document_id: id, provider_document_id: provider, organisation_id: org, company_id: company, acknowledged_at: w.iso() });
  }
  for (let n = 0; n < size.inbox; n++) {
    const id = `svc_sapi_in_${randomBytes(16).toString('hex')}`;
    const inbox = w.stream(`sapi_inbox-${id}`);
    w.add(inbox, 'SapiInboxDocumentReceived', { document_id: id, organisation_id: org, company_id: company, invoice_id: randomUUID(), peppol_message_id: randomUUID(), received_at: w.iso() });
    if (w.chance(0.8)) w.add(inbox, 'SapiInboxDocumentAcknowledged', { document_id: id, company_id: company, acknowledged_at: w.iso() });
  }

  // a bulk import in chunks, and one that failed
  const job = randomUUID();
  const bulk = w.stream(`bulk_import-${job}`);
  w.add(bulk, 'BulkImportRequested', { job_id: job, organisation_id: org, company_id: company, requested_at: w.iso() });
  w.add(bulk, 'BulkImportFileStored', { job_id: job });
  for (let g = 1; g <= 6; g++) w.add(bulk, 'BulkImportProgressed', { job_id: job, next_group: g + 1, rows_processed: g * 50, created: g * 49, at: w.iso() });
  w.add(bulk, 'BulkImportCompleted', { job_id: job, rows_processed: 300, created: 294, completed_at: w.iso() });
  const failed = randomUUID();
  const bulkFailed = w.stream(`bulk_import-${failed}`);
  w.add(bulkFailed, 'BulkImportRequested', { job_id: failed, organisation_id: org, company_id: company, requested_at: w.iso() });
  w.add(bulkFailed, 'BulkImportFailed', { job_id: failed, failed_at: w.iso() });
  return w.streams.filter((s) => s.events.length > 0);
}

/**
 * Appends `worlds` organisations' histories to the store, `perRound` worlds at a time in rounds
 * (the r-th event of each of their streams in one write); returns how many events it appended.
 */
export async function fillHistory(store: EventStore, worlds: number, size: WorldSize, seed: number, perRound = 8): Promise<number> {
  const random = prng(seed);
  let appended = 0;
  for (let first = 0; first < worlds; first += perRound) {
    const streams = Array.from({ length: Math.min(perRound, worlds - first) }, () => world(random, size)).flat();
    const longest = Math.max(...streams.map((s) => s.events.length));
    // a few events of a stream at once (a command writes one or two), so rounds stay many
    const step = 2;
    for (let r = 0; r < longest; r += step) {
      const writes: StreamWrite[] = streams
        .filter((s) => s.events.length > r)
        .map((s) => ({ streamId: s.id, events: s.events.slice(r, r + step), expected: r === 0 ? 'no_stream' : r - 1 }));
      for (let at = 0; at < writes.length; at += 2000) {
        await store.appendToStreams(writes.slice(at, at + 2000));
      }
      appended += writes.reduce((n, w) => n + w.events.length, 0);
    }
  }
  return appended;
}
