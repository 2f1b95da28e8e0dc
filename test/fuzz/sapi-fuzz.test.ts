import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { inboxHandle } from '../../commands/sapi/inbox.ts';
import type { Route } from '../../src/platform/http/index.ts';
import { sapiTestClient, type SapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { eventually } from '../support/poll.ts';
import { newKey, sendRequest, ublBetween } from '../sapi/support/send.ts';
import { casesFor, type FuzzCase } from '../../campaigns/support/fuzz/cases.ts';
import { judge, type Answer } from '../../campaigns/support/fuzz/oracle.ts';
import { Random } from '../../campaigns/support/fuzz/random.ts';
import { groupedReport, reproduction, Tally, type Failure } from '../../campaigns/support/fuzz/report.ts';
import type { Known } from '../../campaigns/support/fuzz/values.ts';

/**
 * The route fuzz of fuzz.test.ts for the SAPI-SK door: every /sapi route, seeded, over HTTP. It
 * fails on any 5xx, no answer, bad text accepted, or a refusal outside the SAPI-SK envelope
 * (`{error: {category, code, message, retryable, correlation_id, details[]}}`).
 *
 *   FUZZ_CASES=200 FUZZ_SEED=7 npx mocha --no-config -n import=tsx --exit test/fuzz/sapi-fuzz.test.ts
 */
const PER_ROUTE = positive(process.env.FUZZ_CASES, 25);
const SEED = positive(process.env.FUZZ_SEED, 18);

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

const label = (r: Route) => `${r.method} /sapi${r.path}`;

describe('fuzz: every route of the SAPI-SK door', function () {
  this.timeout(0);
  let svc: TestService;
  let client: SapiTestClient;
  const known: Known = { ids: new Map(), strings: [] };

  before(async () => {
    svc = await startTestService();
    await svc.services.validator();
    client = await sapiTestClient(svc, 0);
    const [a, b] = [svc.demo.companies[0]!, svc.demo.companies[1]!];
    known.strings.push(a.peppol_id, b.peppol_id, a.sapi.client_id, a.sapi.client_secret, 'client_credentials', 'document:send', 'document:receive', 'XML', 'UTF-8', 'RECEIVED', 'ACKNOWLEDGED');
    // a real outbound document of company 0, and one inbound to it (company 1 sends), so the id routes reach their handlers
    const out = await client.call('POST', '/document/send', sendRequest((await ublBetween(svc, { companyId: a.id }, b)).xml, a.peppol_id, b.peppol_id), { 'idempotency-key': newKey() });
    expect(out.status, JSON.stringify(out.body)).to.equal(202);
    const other = await sapiTestClient(svc, 1);
    const back = await other.call('POST', '/document/send', sendRequest((await ublBetween(svc, { companyId: b.id }, a)).xml, b.peppol_id, a.peppol_id), { 'idempotency-key': newKey() });
    expect(back.status, JSON.stringify(back.body)).to.equal(202);
    const sent = await eventually(async () => (await other.call('GET', `/document/status/${back.body.providerDocumentId}`)).body, (s) => s.status === 'SENT', { what: 'the inbound document sent' });
    known.ids.set('providerDocumentId', [out.body.providerDocumentId, back.body.providerDocumentId]);
    known.ids.set('documentId', [inboxHandle(a.id, sent.peppolMessageId as string)]);
  });
  after(async () => svc?.close());

  async function send(c: FuzzCase): Promise<Answer> {
    const headers: Record<string, string> = { ...c.headers };
    // 'api_key' is the route's own credential here (a SAPI token); 'user' sends the native key, which /sapi refuses
    if (c.credential === 'api_key') Object.assign(headers, { authorization: `Bearer ${client.token}`, 'x-peppol-participant-id': client.participant_id });
    if (c.credential === 'user') headers['x-api-key'] = svc.demo.api_key;
    if (c.method === 'POST' && !('idempotency-key' in headers) && c.path.startsWith('/document/send')) headers['idempotency-key'] = randomUUID();
    try {
      const res = await fetch(`${svc.root}/sapi${c.path}`, { method: c.method, headers, body: c.body, signal: AbortSignal.timeout(120_000) });
      return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
    } catch (error) {
      return { status: 0, contentType: '', text: '', error: error instanceof Error ? error.message : String(error) };
    }
  }

  it(`answers every fuzzed request of every /sapi route with a 2xx or an enveloped 4xx (seed ${SEED}, ${PER_ROUTE} cases per route)`, async () => {
    const failures: Failure[] = [];
    const tally = new Tally();
    const started = Date.now();
    const routes = svc.services.sapi.routes as unknown as Route[];
    expect(routes.length).to.be.greaterThan(8);
    for (const route of routes) {
      tally.routes += 1;
      for (const c of casesFor(route, Random.forLabel(SEED, label(route)), known, PER_ROUTE)) {
        const answer = await send(c);
        tally.add(label(route), c, answer);
        const verdict = judge(route, c, answer, 'sapi');
        if (verdict) failures.push({ route: label(route), fuzzCase: c, answer, verdict });
      }
    }
    console.log(tally.summary(SEED, PER_ROUTE, (Date.now() - started) / 1000));
    expect(failures, `\n${groupedReport(failures)}\n${failures.slice(0, 3).map((f) => reproduction(f.fuzzCase)).join('\n')}`).to.have.length(0);
  });
});
