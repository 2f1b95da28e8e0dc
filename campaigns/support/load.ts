// The campaigns' mixed load: 32 seeded clients over real HTTP against both demo organisations.
// Each client creates and edits invoices (If-Match), sends them, issues credit notes (some racing
// on one invoice), records payments, registers and removes webhooks, and uses SAPI-SK send (with an
// Idempotency-Key, resent unchanged until answered), receive and acknowledge. Every 2xx goes to the
// Records log. A service that is down, restarting or hung is part of the run: a refused, reset or
// timed-out request counts as unacknowledged, the client waits a little and goes on.
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { DemoCompany, DemoCredentials } from '../../src/demo/bootstrap.ts';
import { Seeded } from '../../test/ubl/support/seeded.ts';
import type { AckRecord, RecordKind, Records } from './records.ts';

export type Action = 'create' | 'edit' | 'send' | 'credit' | 'pay' | 'webhook' | 'sapi-send' | 'sapi-receive';

/** How often each action is chosen (relative weights). */
export const DEFAULT_MIX: Record<Action, number> = { create: 30, edit: 12, send: 18, credit: 14, pay: 10, webhook: 2, 'sapi-send': 9, 'sapi-receive': 5 };

export interface LoadOptions {
  /** service roots, e.g. ['http://127.0.0.1:8080'] (several: each request goes to the next, round robin) */
  baseUrls: string[];
  credentials: DemoCredentials;
  seed: number;
  records: Records;
  /** 32 by default */
  clients?: number;
  /** where registered webhooks point (a loopback receiver; the service needs WEBHOOK_ALLOW_PRIVATE_TARGETS=true) */
  webhookUrl?: string;
  /** a request without an answer after this long is abandoned as unacknowledged (default 30 s) */
  requestTimeoutMs?: number;
  /** API keys to use instead of the demo's one per organisation: client i takes keys[i % length] of its organisation */
  apiKeys?: { a: string[]; b: string[] };
  /** each client waits this long between its requests (default 0: closed loop) */
  paceMs?: number;
  mix?: Partial<Record<Action, number>>;
  /** called with every answer, acknowledged or not (latency figures, outage timelines) */
  onAnswer?: (answer: Answer) => void;
}

/** One request's outcome: an HTTP status, or `status: 0` with the network error (refused, reset, timeout). */
export interface Answer {
  action: Action | 'setup' | 'reload';
  method: string;
  path: string;
  status: number;
  error?: string;
  /** the spec's error code when the body names one (detail.error, the top-level error, or the SAPI envelope's code) */
  code?: string;
  ms: number;
  /** ms since the epoch when the request was sent */
  sentAt: number;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

export interface LoadSummary {
  seconds: number;
  requests: number;
  /** answers by status (`0` is no answer: refused, reset or timed out) */
  byStatus: Record<string, number>;
  /** acknowledged (2xx) commands recorded */
  acknowledged: number;
  /** network errors by message */
  errors: Record<string, number>;
  /** credit notes that lost an If-Match race (412) */
  raceLosses: number;
}

export interface Load {
  /** stops every client after its current request; resolves with the totals */
  stop(): Promise<LoadSummary>;
  summary(): LoadSummary;
}

interface Held { id: string; version: number; number?: string }
interface Org {
  name: 'a' | 'b';
  organisation: string;
  company: string;
  keys: string[];
  customer: string;
  /** invoices sent, shared by the organisation's clients: credit notes and payments pick from them, the newest races */
  sent: Held[];
  webhooks: string[];
}

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Prepares (customers, a SAPI template, tokens) and starts the clients; resolves once they run. */
export async function startLoad(options: LoadOptions): Promise<Load> {
  const clients = options.clients ?? 32;
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const mix = { ...DEFAULT_MIX, ...options.mix };
  const actions = (Object.keys(mix) as Action[]).filter((a) => mix[a] > 0);
  const totalWeight = actions.reduce((sum, a) => sum + mix[a], 0);
  const demo = options.credentials;
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients * 2 });
  const summary: LoadSummary = { seconds: 0, requests: 0, byStatus: {}, acknowledged: 0, errors: {}, raceLosses: 0 };
  const started = Date.now();
  let next = 0;
  let running = true;

  async function call(action: Answer['action'], method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
    const base = new URL(options.baseUrls[next++ % options.baseUrls.length]!);
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const sentAt = Date.now();
    const t0 = performance.now();
    const answer = await new Promise<Answer>((resolve) => {
      const sent = { ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }) };
      const done = (status: number, raw: string, responseHeaders: http.IncomingHttpHeaders, error?: string) => {
        let parsed: unknown = raw;
        try {
          parsed = raw ? JSON.parse(raw) : null;
        } catch {
          // not JSON: kept as text
        }
        resolve({ action, method, path, status, error, code: codeOf(parsed), ms: performance.now() - t0, sentAt, body: parsed, headers: responseHeaders });
      };
      const request = http.request({ agent, host: base.hostname, port: base.port, path, method, headers: sent, timeout: timeoutMs }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => done(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), response.headers));
        response.on('error', (error) => done(0, '', {}, error.message));
      });
      request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      request.on('error', (error: NodeJS.ErrnoException) => done(0, '', {}, error.code ?? error.message));
      request.end(text);
    });
    summary.requests++;
    summary.byStatus[String(answer.status)] = (summary.byStatus[String(answer.status)] ?? 0) + 1;
    if (answer.error) summary.errors[answer.error] = (summary.errors[answer.error] ?? 0) + 1;
    options.onAnswer?.(answer);
    return answer;
  }

  const record = (r: Omit<AckRecord, 'at'>) => {
    summary.acknowledged++;
    options.records.write({ at: Date.now(), ...r });
  };
  const api = (path: string) => `/api/v1${path}`;
  const keyed = (key: string) => ({ 'x-api-key': key });

  // --- setup: one customer per organisation, the buyer its invoices go to over the sandbox Peppol network
  const [first, second] = demo.companies;
  if (!first || !second) throw new Error('the demo has no two companies');
  const a0: DemoCompany = first;
  const a1: DemoCompany = second;
  const party = (c: DemoCompany) => ({ name: c.name, vat_id: c.vat_id, ico: c.ico, dic: c.dic, peppol_id: c.peppol_id });
  async function setupCustomer(org: 'a' | 'b', organisation: string, company: string, key: string, buyer: DemoCompany): Promise<string> {
    for (;;) {
      const created = await call('setup', 'POST', api(`/companies/${company}/customers`), keyed(key), { ...party(buyer), name: `${buyer.name} (${randomUUID().slice(0, 6)})` });
      if (created.status === 201) {
        const id = (created.body as { id: string }).id;
        record({ client: -1, kind: 'customer.create', org, organisation, company, id, status: 201 });
        return id;
      }
      if (created.status === 409) {
        // the vat_id is there already (an earlier run on this data): use that customer
        const found = await call('setup', 'GET', api(`/companies/${company}/customers?q=${encodeURIComponent(buyer.vat_id)}`), keyed(key));
        const item = (found.body as { items?: { id: string }[] } | null)?.items?.[0];
        if (item) return item.id;
      }
      if (created.status !== 0 && created.status < 500 && created.status !== 409) throw new Error(`load setup: customer ${created.status} ${JSON.stringify(created.body)}`);
      await sleep(500);
    }
  }
  const keysA = options.apiKeys?.a.length ? options.apiKeys.a : [demo.api_key];
  const keysB = options.apiKeys?.b.length ? options.apiKeys.b : [demo.second_organisation.api_key];
  const orgs: Org[] = [
    { name: 'a', organisation: demo.organisation_id, company: a0.id, keys: keysA, customer: await setupCustomer('a', demo.organisation_id, a0.id, keysA[0]!, a1), sent: [], webhooks: [] },
    { name: 'b', organisation: demo.second_organisation.organisation_id, company: demo.second_organisation.company_id, keys: keysB, customer: await setupCustomer('b', demo.second_organisation.organisation_id, demo.second_organisation.company_id, keysB[0]!, a0), sent: [], webhooks: [] },
  ];

  // --- SAPI-SK: a UBL template from an invoice the service builds, and a token per company of organisation A
  const sapi = { template: '', tokens: new Map<string, string>() };
  const metadata = {
    documentTypeId: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
    processId: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
    senderParticipantId: a0.peppol_id, receiverParticipantId: a1.peppol_id,
  };
  async function token(company: DemoCompany, renew = false): Promise<string | null> {
    const held = sapi.tokens.get(company.id);
    if (held && !renew) return held;
    const answer = await call('setup', 'POST', '/sapi/auth/token', {}, { client_id: company.sapi.client_id, client_secret: company.sapi.client_secret, grant_type: 'client_credentials' });
    if (answer.status !== 200) return null;
    const access = (answer.body as { access_token: string }).access_token;
    sapi.tokens.set(company.id, access);
    return access;
  }
  for (;;) {
    const key = keysA[0]!;
    const created = await call('setup', 'POST', api(`/companies/${a0.id}/invoices`), keyed(key), invoiceBody(orgs[0]!.customer, 1, 0));
    if (created.status === 201) {
      const inv = created.body as { id: string; version: number; invoice_number: string };
      record({ client: -1, kind: 'invoice.create', org: 'a', organisation: demo.organisation_id, company: a0.id, id: inv.id, version: inv.version, number: inv.invoice_number, status: 201 });
      const ubl = await call('setup', 'GET', api(`/companies/${a0.id}/invoices/${inv.id}/ubl`), keyed(key));
      if (ubl.status === 200 && typeof ubl.body === 'string') {
        sapi.template = ubl.body.replace(`<cbc:ID>${inv.invoice_number}</cbc:ID>`, '<cbc:ID>{{NUMBER}}</cbc:ID>');
        if (!sapi.template.includes('{{NUMBER}}')) throw new Error('load setup: the invoice number is not in the UBL as expected');
        break;
      }
    } else if (created.status !== 0 && created.status < 500) {
      throw new Error(`load setup: invoice ${created.status} ${JSON.stringify(created.body)}`);
    }
    await sleep(500);
  }

  // --- the clients
  async function client(index: number): Promise<void> {
    const random = new Seeded(options.seed * 1000 + index);
    const org = orgs[index % 4 === 3 ? 1 : 0]!; // a quarter of the clients work for organisation B
    const key = org.keys[Math.floor(index / 4) % org.keys.length]!;
    const headers = keyed(key);
    const drafts: Held[] = [];
    /** a SAPI send not answered yet: resent with the same key and body until it is */
    let pendingSend: { key: string; body: string } | null = null;
    let serial = 0;
    const pick = (): Action => {
      let roll = random.next() * totalWeight;
      for (const a of actions) if ((roll -= mix[a]) < 0) return a;
      return actions[0]!;
    };
    const base = { client: index, org: org.name, organisation: org.organisation, company: org.company };
    const invoices = api(`/companies/${org.company}/invoices`);

    const reload = async (held: Held) => {
      const read = await call('reload', 'GET', `${invoices}/${held.id}`, headers);
      if (read.status === 200) held.version = (read.body as { version: number }).version;
      return read.status;
    };

    while (running) {
      let action = pick();
      if (org.name === 'b' && (action === 'sapi-send' || action === 'sapi-receive')) action = 'create'; // B has no SAPI client
      if ((action === 'edit' || action === 'send') && drafts.length === 0) action = 'create';
      if ((action === 'credit' || action === 'pay') && org.sent.length === 0) action = drafts.length > 0 ? 'send' : 'create';
      let answer: Answer | null = null;
      switch (action) {
        case 'create': {
          answer = await call(action, 'POST', invoices, headers, invoiceBody(org.customer, random.int(1, 3), random.int(0, 20)));
          if (answer.status === 201) {
            const inv = answer.body as { id: string; version: number; invoice_number: string };
            drafts.push({ id: inv.id, version: inv.version, number: inv.invoice_number });
            record({ ...base, kind: 'invoice.create', id: inv.id, version: inv.version, number: inv.invoice_number, status: 201 });
          }
          break;
        }
        case 'edit': {
          const held = drafts[random.int(0, drafts.length - 1)]!;
          answer = await call(action, 'PUT', `${invoices}/${held.id}`, { ...headers, 'if-match': `"${held.version}"` }, invoiceBody(org.customer, random.int(1, 3), random.int(0, 20)));
          if (answer.status === 200) {
            held.version = (answer.body as { version: number }).version;
            record({ ...base, kind: 'invoice.edit', id: held.id, version: held.version, status: 200 });
          } else if (answer.status === 412) {
            await reload(held);
          } else if (answer.status === 409 || answer.status === 404) {
            drafts.splice(drafts.indexOf(held), 1); // sent or gone meanwhile (an unacknowledged send that was applied)
          }
          break;
        }
        case 'send': {
          const held = drafts.shift()!;
          answer = await call(action, 'POST', `${invoices}/${held.id}/send`, headers);
          if (answer.status === 202) {
            record({ ...base, kind: 'invoice.send', id: held.id, status: 202 });
            org.sent.push(held);
            if (org.sent.length > 200) org.sent.splice(0, org.sent.length - 200);
          } else if (answer.status === 0 || answer.status >= 500 || answer.status === 429) {
            drafts.push(held); // try again later: a send is idempotent on a queued invoice
          }
          break;
        }
        case 'credit': {
          // half of them race on the organisation's newest sent invoice
          const racing = random.chance(0.5);
          const shared = racing ? org.sent[org.sent.length - 1]! : org.sent[random.int(0, org.sent.length - 1)]!;
          const held = { ...shared };
          if ((await reload(held)) !== 200) break;
          answer = await call(action, 'POST', `${invoices}/${held.id}/credit-notes`, { ...headers, 'if-match': `"${held.version}"` }, {
            reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: `${random.int(1, 3)}.${String(random.int(0, 99)).padStart(2, '0')}` }], note: `kampaň ${index}`,
          });
          if (answer.status === 201 || answer.status === 202) {
            const note = answer.body as { id: string; version: number; invoice_number: string };
            const invoiceVersion = Number(answer.headers['x-invoice-version']);
            record({ ...base, kind: 'credit-note.create', id: note.id, version: note.version, number: note.invoice_number, invoice: held.id, status: answer.status });
            if (Number.isFinite(invoiceVersion)) record({ ...base, kind: 'invoice.edit', id: held.id, version: invoiceVersion, status: answer.status });
          } else if (answer.status === 412) {
            summary.raceLosses++;
          } else if (answer.status === 409 || answer.status === 422) {
            // spent, failed or rejected: no more credit notes on it
            const at = org.sent.findIndex((h) => h.id === held.id);
            if (at >= 0 && (answer.code === 'not_creditable' || answer.code === 'credit_limit_exceeded')) org.sent.splice(at, 1);
          }
          break;
        }
        case 'pay': {
          const held = org.sent[random.int(0, org.sent.length - 1)]!;
          answer = await call(action, 'POST', api('/payments'), headers, { document_id: held.id, amount: `${random.int(1, 20)}.00`, currency_code: 'EUR', paid_on: today(), method: 'bank_transfer', reference: `VS ${index}${serial++}` });
          if (answer.status === 201) record({ ...base, kind: 'payment.create', id: (answer.body as { id: string }).id, invoice: held.id, status: 201 });
          break;
        }
        case 'webhook': {
          if (org.webhooks.length >= 4 || !options.webhookUrl) {
            const id = org.webhooks.shift();
            if (!id) break;
            answer = await call(action, 'DELETE', api(`/connect/webhooks/${id}`), headers);
            if (answer.status >= 200 && answer.status < 300) record({ ...base, kind: 'webhook.delete', id, status: answer.status });
            else if (answer.status === 0 || answer.status >= 500) org.webhooks.push(id);
          } else {
            answer = await call(action, 'POST', api('/connect/webhooks'), headers, { url: options.webhookUrl, events: 'invoice.delivered,invoice.fs_acknowledged,invoice.rejected,invoice.fs_rejected', description: `campaign client ${index}` });
            if (answer.status === 201) {
              const id = (answer.body as { id: string }).id;
              org.webhooks.push(id);
              record({ ...base, kind: 'webhook.create', id, status: 201 });
            }
          }
          break;
        }
        case 'sapi-send': {
          const access = await token(a0);
          if (!access) break;
          if (!pendingSend) {
            const payload = sapi.template.replace('{{NUMBER}}', `SAPI-${options.seed}-${index}-${serial++}-${random.digits(4)}`);
            pendingSend = {
              key: randomUUID(),
              body: JSON.stringify({ metadata: { ...metadata, documentId: `campaign-${index}-${serial}`, creationDateTime: new Date().toISOString() }, payload, payloadFormat: 'XML', payloadEncoding: 'UTF-8', checksum: createHash('sha256').update(payload, 'utf8').digest('hex') }),
            };
          }
          answer = await call(action, 'POST', '/sapi/document/send', { authorization: `Bearer ${access}`, 'x-peppol-participant-id': a0.peppol_id, 'idempotency-key': pendingSend.key }, pendingSend.body);
          if (answer.status === 202) {
            record({ ...base, company: a0.id, kind: 'sapi.send', id: (answer.body as { providerDocumentId: string }).providerDocumentId, key: pendingSend.key, status: 202 });
            pendingSend = null;
          } else if (answer.status === 401) {
            await token(a0, true);
          } else if (answer.status > 0 && answer.status < 500 && answer.status !== 429 && answer.status !== 409) {
            pendingSend = null; // refused for good; a new document next time
          }
          break;
        }
        case 'sapi-receive': {
          const access = await token(a1);
          if (!access) break;
          const sapiHeaders = { authorization: `Bearer ${access}`, 'x-peppol-participant-id': a1.peppol_id };
          answer = await call(action, 'GET', '/sapi/document/receive?status=RECEIVED&limit=20', sapiHeaders);
          if (answer.status === 401) await token(a1, true);
          const documents = (answer.body as { documents?: { documentId: string }[] } | null)?.documents ?? [];
          if (answer.status !== 200 || documents.length === 0) break;
          const documentId = documents[random.int(0, documents.length - 1)]!.documentId;
          answer = await call(action, 'POST', `/sapi/document/receive/${documentId}/acknowledge`, sapiHeaders);
          if (answer.status === 200) record({ ...base, company: a1.id, kind: 'sapi.acknowledge', id: documentId, status: 200 });
          break;
        }
      }
      if (answer && (answer.status === 0 || answer.status === 503)) await sleep(200 + random.int(0, 300)); // down or restarting: come back a little later
      else if (answer?.status === 429) await sleep(1000 * Math.max(1, Number(answer.headers['retry-after'] ?? 1)));
      if (options.paceMs) await sleep(options.paceMs);
    }
  }

  const loops = Array.from({ length: clients }, (_, i) => client(i).catch((error: unknown) => {
    // a client never takes the campaign down; its error is counted and it stops
    summary.errors[`client ${i} stopped: ${String(error)}`] = 1;
  }));
  const snapshot = () => ({ ...summary, seconds: (Date.now() - started) / 1000 });
  return {
    summary: snapshot,
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
      return snapshot();
    },
  };
}

function invoiceBody(customer: string, lines: number, variant: number) {
  return {
    issue_date: today(), due_date: inDays(14), customer_id: customer,
    lines: Array.from({ length: lines }, (_, i) => ({ item_name: `Položka ${i + 1} (${variant})`, quantity: String(i + 1), unit_price: `${10 + variant}.${String(i * 7).padStart(2, '0')}`, vat_rate: '23' })),
  };
}

/** detail.error (native), a top-level error string (the limiter), or error.code (SAPI). */
function codeOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { detail?: unknown; error?: unknown };
  if (b.detail && typeof b.detail === 'object' && 'error' in b.detail && typeof (b.detail as { error: unknown }).error === 'string') return (b.detail as { error: string }).error;
  if (typeof b.error === 'string') return b.error;
  if (b.error && typeof b.error === 'object' && typeof (b.error as { code?: unknown }).code === 'string') return (b.error as { code: string }).code;
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type { RecordKind };
