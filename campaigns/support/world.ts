import { randomBytes } from 'node:crypto';
import { inboxHandle } from '../../commands/sapi/inbox.ts';
import { addUser, systemMetadata } from '../../src/modules/tenancy/tenancy.ts';
import { randomSandboxIdentity } from '../../src/demo/identifiers.ts';
import { EMITTED_WEBHOOK_EVENT_TYPES } from '../../src/modules/webhooks/events/catalogue.ts';
import { eventually } from '../../test/support/poll.ts';
import { sapiTestClient } from '../../test/support/sapi.ts';
import type { TestService } from '../../test/support/service.ts';
import { sendRequest, sha256Hex, ublBetween } from '../../test/sapi/support/send.ts';
import { expectStatus, field, send, type Reply } from './http.ts';

/**
 * Resources of one organisation made over HTTP for a campaign to aim at: every kind a route
 * names by id (invoices, credit notes, approvals, payments, customers, webhooks and their
 * deliveries, import jobs, workspaces, API keys, OAuth and SAPI clients, SAPI documents), keyed by
 * the path parameter that names them, and the strings that are the organisation's alone (ids,
 * invoice numbers, VAT IDs) to look for where they must not be.
 */
export interface World {
  organisationId: string;
  /** ids by the route parameter (or body field) that carries them */
  ids: Record<string, string[]>;
  /** strings of this organisation another must never see */
  secrets: string[];
  /** the Peppol participants of its companies */
  participants: string[];
  /** sign-in and the three credentials */
  apiKey: string;
  user: { email: string; password: string };
  jwt: string;
  sapi: {
    token: string; participantId: string; clientId: string; companyId: string;
    /** a fresh access token for the same client: a token lives 900 s, a long run outlives it */
    renew(): Promise<string>;
  };
  /**
   * Bodies its routes accept, by `METHOD path` as the router holds it: what no schema spells (a SAPI
   * send's UBL whose parties are the metadata's, a flat invoice create naming its supplier's VAT ID).
   * The fuzz starts plain cases from them and mutates them.
   */
  validBodies?: Record<string, Record<string, unknown>>;
}

const year = new Date().getUTCFullYear();
const uniqueNumber = (tag: string) => `${tag}-${randomBytes(4).toString('hex').toUpperCase()}`;
const csv = (vat: string) => `invoice_ref,issue_date,due_date,buyer_name,buyer_vat_id,item_name,quantity,unit_price,vat_rate\nA,${year}-03-01,${year}-03-15,B,${vat},x,1,1.00,23\n`;

export async function signIn(svc: TestService, user: { email: string; password: string }): Promise<{ access: string; refresh: string }> {
  const res = expectStatus(await send({ method: 'POST', url: `${svc.api}/auth/login`, body: user }), 200, `sign-in of ${user.email}`);
  return { access: field(res, 'access_token', 'sign-in'), refresh: field(res, 'refresh_token', 'sign-in') };
}

/** A SAPI access token from POST /sapi/auth/token, as a client gets one. */
async function sapiToken(svc: TestService, clientId: string, clientSecret: string): Promise<string> {
  const res = expectStatus(await send({ method: 'POST', url: `${svc.root}/sapi/auth/token`, body: { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' } }), 200, 'SAPI token');
  return field(res, 'access_token', 'SAPI token');
}

/**
 * The demo organisation (A) with one of everything: two companies that exchange a SAPI document
 * each way, a customer with a VAT ID of its own, drafts, a sent invoice with a credit note and a
 * payment, an approval request, webhooks (organisation and workspace) aimed at `hookUrl` with a
 * test delivery, a bulk import job, a spare API key, OAuth client and SAPI client.
 */
export async function seedDemoOrganisation(svc: TestService, hookUrl: string): Promise<World> {
  const { demo } = svc;
  const [c0, c1] = [demo.companies[0]!, demo.companies[1]!];
  const ids: Record<string, string[]> = {};
  const secrets: string[] = [demo.organisation_id, demo.workspace_id, demo.admin.email];
  const remember = (name: string, id: string) => {
    (ids[name] ??= []).push(id);
    secrets.push(id);
  };
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    send({ method, url: `${svc.api}${path}`, headers: { 'x-api-key': demo.api_key, ...headers }, body });
  const created = async (what: string, reply: Promise<Reply>, statuses: number[] = [201]) => expectStatus(await reply, statuses, what);

  for (const c of [c0, c1]) {
    remember('company_id', c.id);
    secrets.push(c.vat_id, c.peppol_id);
  }
  remember('workspace_id', demo.workspace_id);
  ids.ico = [c0.ico];

  const identity = randomSandboxIdentity();
  secrets.push(identity.vat_id);
  const customer = await created('customer', call('POST', `/companies/${c0.id}/customers`, { name: 'Walk A Odberateľ s.r.o.', vat_id: identity.vat_id, ico: identity.ico, dic: identity.dic, city: 'Trnava' }));
  remember('customer_id', field(customer, 'id', 'customer'));

  const invoiceBody = (number: string) => ({
    issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: ids.customer_id![0], invoice_number: number,
    lines: [{ item_name: 'Konzultácia', quantity: '2', unit_code: 'C62', unit_price: '100.00', vat_rate: '23' }],
  });
  const invoices: Reply[] = [];
  for (let i = 0; i < 3; i++) {
    const number = uniqueNumber('WA');
    secrets.push(number);
    const invoice = await created('invoice', call('POST', `/companies/${c0.id}/invoices`, invoiceBody(number)));
    remember('invoice_id', field(invoice, 'id', 'invoice'));
    invoices.push(invoice);
  }
  // numbered by the series (a given number would be taken after the first create)
  const { invoice_number: _taken, ...unnumbered } = invoiceBody('');
  const validBodies: Record<string, Record<string, unknown>> = { 'POST /invoices': { ...unnumbered, supplier: { name: c0.name, vat_id: c0.vat_id } } };
  const [draft, forApproval, toSend] = ids.invoice_id as [string, string, string];
  void draft;
  // the third is issued: sent by hand, credited and paid
  const sent = await created('mark-sent', call('POST', `/companies/${c0.id}/invoices/${toSend}/mark-sent`, {}), [200]);
  const version = field(sent, 'version', 'mark-sent');
  const credit = await created('credit note', call('POST', `/companies/${c0.id}/invoices/${toSend}/credit-notes`, { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '12.30' }] }, { 'if-match': `"${version}"` }), [201, 202]);
  remember('invoice_id', field(credit, 'id', 'credit note'));
  remember('credit_note_id', field(credit, 'id', 'credit note'));
  const payment = await created('payment', call('POST', '/payments', { document_id: toSend, amount: '10.00', currency_code: 'EUR', paid_on: `${year}-03-20`, method: 'bank_transfer' }));
  remember('payment_id', field(payment, 'id', 'payment'));
  await created('approval request', call('POST', `/companies/${c0.id}/invoices/${forApproval}/request-approval`), [200, 403, 409]);

  const events = EMITTED_WEBHOOK_EVENT_TYPES.join(',');
  const hook = await created('webhook', call('POST', '/connect/webhooks', { url: hookUrl, events }));
  remember('webhook_id', field(hook, 'id', 'webhook'));
  const ping = await created('webhook test', call('POST', `/connect/webhooks/${ids.webhook_id![0]}/test`), [202]);
  // an event sent to A's endpoint: the events list and its resend name it
  remember('event_id', field(ping, 'event_id', 'webhook test'));
  const wsHook = await created('workspace webhook', call('POST', `/workspaces/${demo.workspace_id}/webhooks`, { url: hookUrl, events }));
  remember('webhook_id', field(wsHook, 'id', 'workspace webhook'));

  const job = await created('bulk import', send({ method: 'POST', url: `${svc.api}/companies/${c0.id}/invoices/bulk-import`, headers: { 'x-api-key': demo.api_key, 'content-type': 'text/csv' }, body: csv(identity.vat_id) }), [202]);
  remember('job_id', field(job, 'job_id', 'bulk import'));
  const key = await created('api key', call('POST', '/api-keys', { name: 'campaign spare' }));
  remember('key_id', field(key, 'id', 'api key'));
  const client = await created('oauth client', call('POST', '/oauth2/clients', { name: 'campaign spare' }));
  remember('client_id', field(client, 'client_id', 'oauth client'));
  // the spare SAPI client is company 1's: the fuzz may disable it; company 0's keeps working
  const sapiClient = await created('sapi client', call('POST', `/companies/${c1.id}/sapi-clients`));
  remember('sapi_client_id', field(sapiClient, 'client_id', 'sapi client'));
  remember('sapi_client_id', c0.sapi.client_id);
  remember('sapi_client_id', c1.sapi.client_id);

  // SAPI documents: company 0 sends to company 1 and back; each side has an outbound and an inbound one
  const sapi0 = await sapiTestClient(svc, 0);
  const sapi1 = await sapiTestClient(svc, 1);
  const messageIds: string[] = [];
  for (const [from, to, client0, company] of [[c0, c1, sapi0, c1], [c1, c0, sapi1, c0]] as const) {
    const body = sendRequest((await ublBetween(svc, { companyId: from.id }, to)).xml, from.peppol_id, to.peppol_id);
    validBodies['POST /document/send'] ??= { ...body, checksum: sha256Hex(body.payload) };
    const out = await client0.call('POST', '/document/send', body, { 'idempotency-key': `world-${randomBytes(8).toString('hex')}` });
    if (out.status !== 202) throw new Error(`SAPI send: ${out.status} ${out.text}`);
    const providerId = String(out.body.providerDocumentId);
    remember('providerDocumentId', providerId);
    const status = await eventually(async () => (await client0.call('GET', `/document/status/${providerId}`)).body, (s) => s?.status === 'SENT', { what: 'the SAPI document sent', withinMs: 60_000 });
    const messageId = String(status.peppolMessageId);
    messageIds.push(messageId);
    remember('documentId', inboxHandle(company.id, messageId));
  }
  secrets.push(...messageIds);

  const session = await signIn(svc, demo.admin);
  return {
    organisationId: demo.organisation_id, ids, secrets: [...new Set(secrets)], participants: [c0.peppol_id, c1.peppol_id],
    apiKey: demo.api_key, user: demo.admin, jwt: session.access,
    sapi: { token: sapi0.token, participantId: sapi0.participant_id, clientId: sapi0.client_id, companyId: c0.id, renew: async () => (await sapiTestClient(svc, 0)).token },
    validBodies,
  };
}

/**
 * The demo's second organisation (B) as an attacker holds it: its API key, an admin user signed in
 * (a JWT), a SAPI client of its company with a token from /sapi/auth/token, and a webhook on
 * `hookUrl` subscribed to every event type.
 */
export async function seedSecondOrganisation(svc: TestService, hookUrl: string): Promise<World & { companyId: string; workspaceId: string }> {
  const b = svc.demo.second_organisation;
  const call = (method: string, path: string, body?: unknown) => send({ method, url: `${svc.api}${path}`, headers: { 'x-api-key': b.api_key }, body });
  const user = { email: `walk-b+${b.organisation_id.slice(0, 8)}@demo.example.sk`, password: `Walk-${randomBytes(6).toString('hex')}7a!` };
  const added = await addUser(svc.services, { organisationId: b.organisation_id, email: user.email, name: 'B admin', role: 'admin', password: user.password }, systemMetadata('campaign'));
  await svc.services.projections.shown([added.position], 30_000);
  const session = await signIn(svc, user);
  const installed = expectStatus(await call('POST', `/companies/${b.company_id}/sapi-clients`), 201, 'B SAPI client');
  const clientId = field(installed, 'client_id', 'B SAPI client');
  const secret = field(installed, 'client_secret', 'B SAPI client');
  const token = await sapiToken(svc, clientId, secret);
  const participantId = field(installed, 'participant_id', 'B SAPI client');
  const hook = expectStatus(await call('POST', '/connect/webhooks', { url: hookUrl, events: EMITTED_WEBHOOK_EVENT_TYPES.join(',') }), 201, 'B webhook');
  const [row] = (await svc.services.readModels.query('SELECT workspace_id FROM companies WHERE id = $1', [b.company_id])) as { workspace_id: string }[];
  return {
    organisationId: b.organisation_id, companyId: b.company_id, workspaceId: row!.workspace_id,
    ids: { company_id: [b.company_id], workspace_id: [row!.workspace_id], webhook_id: [field(hook, 'id', 'B webhook')], sapi_client_id: [clientId] },
    secrets: [], participants: [participantId], apiKey: b.api_key, user, jwt: session.access,
    sapi: { token, participantId, clientId, companyId: b.company_id, renew: () => sapiToken(svc, clientId, secret) },
  };
}
