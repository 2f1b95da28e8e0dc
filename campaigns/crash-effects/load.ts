// The focused load of the crash-effects campaign: a few clients over real HTTP send native
// invoices both ways between the two demo companies, credit some of them, and send UBL through
// SAPI-SK under an Idempotency-Key. The service is killed under them at any moment, so every
// request is repeated (same key, same body) until it has a definitive answer; each acknowledged
// send is logged with its ids, outside the service's data directory.
import { createHash, randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { DemoCredentials } from '../../src/demo/bootstrap.ts';
import { seededRandom } from '../../src/platform/seeded-random.ts';
import { bodyOf, send } from '../support/http.ts';

/** mulberry32 (src/platform/seeded-random.ts) */
export const seeded = seededRandom;

export type Ack =
  | { kind: 'native-send'; company_id: string; invoice_id: string }
  | { kind: 'credit-note'; company_id: string; invoice_id: string; credited_invoice_id: string }
  | { kind: 'sapi-send'; company_id: string; client_id: string; key: string; provider_document_id: string; number: string };

/** Credit notes answered 412 (a reactor moved the invoice between the client's read and its request): read again, asked again. */
export const raced = { creditNotes412: 0 };

export interface Answer { status: number; body: any; headers: Headers } // eslint-disable-line @typescript-eslint/no-explicit-any

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** answers that say "not now, the same request may succeed later" */
const retryable = (a: Answer) =>
  a.status >= 500 || a.status === 429 || a.status === 408
  || (a.status === 409 && ['idempotency_key_in_progress', 'SAPI-IDEMPOTENCY-IN-PROGRESS'].includes(a.body?.detail?.error ?? a.body?.error?.code));

/**
 * The same request until it gets a definitive answer: the service may be down (connection
 * refused), restarting, or answer 5xx while it starts. Gives up only after `withinMs`.
 */
export async function call(url: string, init: { method: string; headers?: Record<string, string>; body?: unknown }, withinMs = 600_000): Promise<Answer> {
  const deadline = Date.now() + withinMs;
  for (let wait = 100; ; wait = Math.min(2_000, wait * 2)) {
    try {
      const reply = await send({ method: init.method, url, headers: init.headers, body: init.body, timeoutMs: 60_000 });
      const answer = { status: reply.status, body: bodyOf(reply), headers: reply.headers };
      if (!retryable(answer)) return answer;
    } catch {
      // down or restarting
    }
    if (Date.now() > deadline) throw new Error(`${init.method} ${url}: no definitive answer within ${withinMs} ms`);
    await pause(wait);
  }
}

export interface LoadSetup {
  api: string;
  sapi: string;
  demo: DemoCredentials;
  /** company id → its customer id for the other company */
  customers: Map<string, string>;
  /** company id → a UBL from it to the other company with {{NUMBER}} where its number goes */
  templates: Map<string, string>;
  /** company id → a SAPI access token (renewed on 401) */
  tokens: Map<string, string>;
}

const native = (demo: DemoCredentials, extra: Record<string, string> = {}) => ({ 'x-api-key': demo.api_key, ...extra });

async function sapiToken(sapi: string, company: DemoCredentials['companies'][number]): Promise<string> {
  const answer = await call(`${sapi}/auth/token`, { method: 'POST', body: { client_id: company.sapi.client_id, client_secret: company.sapi.client_secret, grant_type: 'client_credentials' } });
  if (answer.status !== 200) throw new Error(`SAPI token: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.access_token as string;
}

/** Customers both ways, SAPI tokens, UBL templates (from a draft each way) and the webhook endpoints on the receiver. */
export async function setUp(root: string, demo: DemoCredentials, hookUrls: string[]): Promise<LoadSetup> {
  const api = `${root}/api/v1`;
  const sapi = `${root}/sapi`;
  const [a, b] = demo.companies;
  if (!a || !b) throw new Error('the demo has fewer than two companies');
  const customers = new Map<string, string>();
  const templates = new Map<string, string>();
  const tokens = new Map<string, string>();
  for (const [from, to] of [[a, b], [b, a]] as const) {
    const customer = await call(`${api}/companies/${from.id}/customers`, {
      method: 'POST', headers: native(demo, { 'idempotency-key': randomUUID() }),
      body: { name: to.name, vat_id: to.vat_id, ico: to.ico, dic: to.dic, peppol_id: to.peppol_id, city: 'Bratislava', postal_code: '81101' },
    });
    if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${JSON.stringify(customer.body)}`);
    customers.set(from.id, customer.body.id as string);
    const draft = await call(`${api}/companies/${from.id}/invoices`, {
      method: 'POST', headers: native(demo, { 'idempotency-key': randomUUID() }),
      body: { issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer.body.id, lines: [{ item_name: 'Šablóna', quantity: '1', unit_price: '10.00', vat_rate: '23' }] },
    });
    if (draft.status !== 201) throw new Error(`template draft: ${draft.status} ${JSON.stringify(draft.body)}`);
    const ubl = await fetch(`${api}/companies/${from.id}/invoices/${draft.body.id}/ubl`, { headers: native(demo) }).then((r) => r.text());
    const template = ubl.replace(`<cbc:ID>${draft.body.invoice_number}</cbc:ID>`, '<cbc:ID>{{NUMBER}}</cbc:ID>');
    if (!template.includes('{{NUMBER}}')) throw new Error('the invoice number is not in the UBL as expected');
    templates.set(from.id, template);
    tokens.set(from.id, await sapiToken(sapi, from));
  }
  for (const url of hookUrls) {
    const hook = await call(`${api}/connect/webhooks`, {
      method: 'POST', headers: native(demo, { 'idempotency-key': randomUUID() }),
      body: { url, events: 'invoice.queued,invoice.delivered,invoice.received,invoice.rejected,invoice.fs_acknowledged,invoice.fs_rejected', description: 'crash-effects receiver' },
    });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
  }
  return { api, sapi, demo, customers, templates, tokens };
}

const INVOICE_DOCUMENT_TYPE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** One client: while `going()`, a native send (sometimes credited) or a SAPI send, each acknowledged once. */
export async function client(setup: LoadSetup, index: number, seed: number, going: () => boolean, ackLog: string, acks: Ack[]): Promise<void> {
  const random = seeded(seed * 1000 + index);
  const { api, sapi, demo } = setup;
  const ack = (a: Ack) => {
    acks.push(a);
    appendFileSync(ackLog, `${JSON.stringify(a)}\n`);
  };
  for (let n = 0; going(); n++) {
    const direction = random() < 0.7 ? 0 : 1;
    const from = demo.companies[direction]!;
    const to = demo.companies[1 - direction]!;
    if (random() < 0.6) {
      const created = await call(`${api}/companies/${from.id}/invoices`, {
        method: 'POST', headers: native(demo, { 'idempotency-key': randomUUID() }),
        body: {
          issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: setup.customers.get(from.id),
          lines: [{ item_name: `Služba ${index}-${n}`, quantity: String(1 + Math.floor(random() * 5)), unit_price: '100.00', vat_rate: '23' }],
        },
      });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      const invoiceId = created.body.id as string;
      const sent = await call(`${api}/companies/${from.id}/invoices/${invoiceId}/send`, { method: 'POST', headers: native(demo, { 'idempotency-key': randomUUID() }) });
      if (sent.status !== 202) throw new Error(`send: ${sent.status} ${JSON.stringify(sent.body)}`);
      ack({ kind: 'native-send', company_id: from.id, invoice_id: invoiceId });
      if (random() < 0.3) {
        // a partial credit at the version read; a 412 (a reactor moved the invoice meanwhile) wrote nothing: read again, new key
        for (let tries = 0; ; tries++) {
          const read = await call(`${api}/companies/${from.id}/invoices/${invoiceId}`, { method: 'GET', headers: native(demo) });
          const credit = await call(`${api}/companies/${from.id}/invoices/${invoiceId}/credit-notes`, {
            method: 'POST', headers: native(demo, { 'idempotency-key': randomUUID(), 'if-match': String(read.body.version) }),
            body: { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '12.30' }], note: 'zľava' },
          });
          if (credit.status === 202) {
            ack({ kind: 'credit-note', company_id: from.id, invoice_id: credit.body.id as string, credited_invoice_id: invoiceId });
            break;
          }
          if (credit.status !== 412 || tries > 50) throw new Error(`credit note: ${credit.status} ${JSON.stringify(credit.body)}`);
          raced.creditNotes412++;
        }
      }
    } else {
      const key = randomUUID();
      const number = `SAPI-${seed}-${index}-${n}`;
      const payload = setup.templates.get(from.id)!.replace('{{NUMBER}}', number);
      const body = {
        metadata: {
          documentId: key, documentTypeId: INVOICE_DOCUMENT_TYPE, processId: BILLING_PROCESS, senderParticipantId: from.peppol_id,
          receiverParticipantId: to.peppol_id, creationDateTime: new Date().toISOString(),
        },
        payload, payloadFormat: 'XML', payloadEncoding: 'UTF-8', checksum: createHash('sha256').update(payload, 'utf8').digest('hex'),
      };
      for (let tries = 0; ; tries++) {
        const headers = { authorization: `Bearer ${setup.tokens.get(from.id)}`, 'x-peppol-participant-id': from.peppol_id, 'idempotency-key': key };
        const answer = await call(`${sapi}/document/send`, { method: 'POST', headers, body });
        if (answer.status === 202) {
          ack({ kind: 'sapi-send', company_id: from.id, client_id: from.sapi.client_id, key, provider_document_id: answer.body.providerDocumentId as string, number });
          break;
        }
        if (answer.status !== 401 || tries > 3) throw new Error(`SAPI send: ${answer.status} ${JSON.stringify(answer.body)}`);
        setup.tokens.set(from.id, await sapiToken(sapi, from));
      }
    }
  }
}

/** Until every acknowledged send has finished both legs (or failed): read through the API, the service running. */
export async function drained(setup: LoadSetup, acks: readonly Ack[], withinMs: number): Promise<{ unfinished: number }> {
  const deadline = Date.now() + withinMs;
  const open = new Set(acks);
  while (open.size > 0 && Date.now() < deadline) {
    for (const a of [...open]) {
      let done: boolean;
      if (a.kind === 'sapi-send') {
        const s = await call(`${setup.sapi}/document/status/${a.provider_document_id}`, {
          method: 'GET', headers: { authorization: `Bearer ${setup.tokens.get(a.company_id)}`, 'x-peppol-participant-id': setup.demo.companies.find((c) => c.id === a.company_id)!.peppol_id },
        });
        if (s.status === 401) setup.tokens.set(a.company_id, await sapiToken(setup.sapi, setup.demo.companies.find((c) => c.id === a.company_id)!));
        done = s.body?.status === 'FAILED' || (s.body?.status === 'SENT' && ['ACKNOWLEDGED', 'REJECTED', 'FAILED'].includes(s.body?.fs?.status));
      } else {
        const s = await call(`${setup.api}/companies/${a.company_id}/invoices/${a.invoice_id}`, { method: 'GET', headers: native(setup.demo) });
        done = ['fs_acknowledged', 'failed', 'rejected'].includes(s.body?.status);
      }
      if (done) open.delete(a);
    }
    if (open.size > 0) await pause(1_000);
  }
  return { unfinished: open.size };
}
