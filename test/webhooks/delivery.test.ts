import { expect } from 'chai';
import { capturingLogger } from '../api/support/http.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { verifyLegacySignature, verifySvcSignature } from '../../src/modules/webhooks/transport/signatures.ts';
import { eventually } from '../support/poll.ts';
import { WebhookReceiver, type Answer } from '../support/webhook-receiver.ts';
import type { Resolver } from '../../src/platform/http-client/target-guard.ts';

type Attempt = { delivery_id: string; event_id: string; event_type: string; attempt: number; attempted_at: string; duration_ms: number; http_status: number | null; outcome: string; next_retry_at: string | null };

/**
 * Webhook delivery through the running service: the test route and domain events reach a local
 * receiver signed, retried by the 5^n schedule (scaled to milliseconds: WEBHOOK_BACKOFF_SCALE
 * 0.001), logged per attempt, and guarded.
 */
describe('webhook delivery over HTTP', function () {
  this.timeout(180_000);
  let svc: TestService;
  const receivers: WebhookReceiver[] = [];
  const log = capturingLogger();

  before(async () => {
    // debug: every line the service may write, so the test below can say no secret is among them
    log.logger.level = 'debug';
    svc = await startTestService({ webhooks: { timeoutMs: 400 }, log: log.logger });
  });
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await svc?.close();
  });
  // an organisation has at most 10 active endpoints: each test deletes its own
  const toDelete: string[] = [];
  afterEach(async () => {
    for (const id of toDelete.splice(0)) await svc.call('DELETE', `/connect/webhooks/${id}`);
  });

  async function receiver(answer?: Answer | ((index: number) => Answer)): Promise<WebhookReceiver> {
    const r = await WebhookReceiver.start({ answer });
    receivers.push(r);
    return r;
  }
  async function endpoint(r: WebhookReceiver, events?: string, apiKey = svc.demo.api_key): Promise<{ id: string; secret: string }> {
    const made = await svc.call('POST', '/connect/webhooks', { url: r.url(), ...(events ? { events } : {}) }, { 'x-api-key': apiKey });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    r.secret = made.body.secret;
    toDelete.push(made.body.id);
    return made.body;
  }
  const ping = (id: string) => svc.call('POST', `/connect/webhooks/${id}/test`);
  const deliveries = async (id: string) => (await svc.call('GET', `/connect/webhooks/${id}/deliveries`)).body.items as Attempt[];
  const attemptsOf = (id: string, n: number) => eventually(() => deliveries(id), (rows) => rows.length >= n, { what: `${n} attempts logged` });

  it('test fires a signed test.ping: both signatures verify, the headers name it, and deliveries logs the attempt', async () => {
    const r = await receiver();
    const hook = await endpoint(r);
    const fired = await ping(hook.id);
    expect(fired.status).to.equal(202);
    expect(fired.body).to.include({ webhook_id: hook.id, event: 'test.ping' });
    const [arrival] = await r.waitFor(1);
    expect(arrival!.svcValid, JSON.stringify(arrival!.svc)).to.equal(true);
    expect(arrival!.legacyValid).to.equal(true);
    const body = JSON.parse(arrival!.rawBody.toString('utf8')) as { id: string; event: string; created_at: string; data: Record<string, unknown> };
    expect(arrival!.rawBody.toString('utf8')).to.equal(JSON.stringify(body)); // compact JSON
    expect(body.event).to.equal('test.ping');
    expect(body.id).to.equal(fired.body.event_id);
    expect(body.data).to.have.property('invoice_id');
    expect(arrival!.headers).to.include({ 'x-webhook-event': 'test.ping', 'x-webhook-event-id': body.id, 'content-type': 'application/json' });
    expect(arrival!.headers['x-webhook-delivery']).to.match(/^[0-9a-f-]{36}$/);
    const [logged] = await attemptsOf(hook.id, 1);
    expect(logged).to.include({ event_id: body.id, event_type: 'test.ping', attempt: 1, http_status: 200, outcome: 'success', next_retry_at: null, delivery_id: arrival!.headers['x-webhook-delivery'] });
  });

  it('after a rotation both secrets sign for the overlap: a consumer holding either verifies; the legacy header uses the new one', async () => {
    const r = await receiver();
    const hook = await endpoint(r);
    const old = hook.secret;
    const rotated = await svc.call('POST', `/connect/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).to.equal(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).to.match(/^whsec_/).and.not.equal(old);
    expect((await ping(hook.id)).status).to.equal(202);
    const [arrival] = await r.waitFor(1);
    const header = String(arrival!.headers['svc-signature']);
    expect(header.match(/v1=/g)).to.have.length(2);
    const now = Math.floor(Date.now() / 1000);
    expect(verifySvcSignature(header, fresh, arrival!.rawBody, now)).to.deep.equal({ ok: true });
    expect(verifySvcSignature(header, old, arrival!.rawBody, now)).to.deep.equal({ ok: true });
    expect(verifyLegacySignature(String(arrival!.headers['x-webhook-signature']), fresh, arrival!.rawBody)).to.equal(true);
    expect(verifyLegacySignature(String(arrival!.headers['x-webhook-signature']), old, arrival!.rawBody)).to.equal(false);
  });

  it('never writes a secret to the log, and the OpenAPI document describes every emitted event under webhooks', async () => {
    const r = await receiver();
    const hook = await endpoint(r);
    await svc.call('POST', `/connect/webhooks/${hook.id}/rotate-secret`);
    await ping(hook.id);
    await r.waitFor(1);
    expect(log.lines.length).to.be.greaterThan(0);
    expect(JSON.stringify(log.lines)).not.to.contain('whsec_');
    const doc = (await (await fetch(`${svc.root}/openapi.json`)).json()) as { webhooks?: Record<string, unknown> };
    expect(Object.keys(doc.webhooks ?? {})).to.include.members([
      'invoice.delivered', 'invoice.received', 'invoice.rejected', 'invoice.fs_acknowledged', 'invoice.fs_rejected',
      'invoice.created', 'invoice.validated', 'invoice.validation_failed', 'invoice.queued', 'test.ping',
    ]);
  });

  it('retries a failing endpoint on the 5^n schedule (scaled) and drops the event after the fifth failure', async () => {
    const r = await receiver({ status: 500 });
    const hook = await endpoint(r);
    await ping(hook.id);
    const arrivals = await r.waitFor(5);
    const rows = (await attemptsOf(hook.id, 5)).reverse();
    expect(rows.map((a) => [a.attempt, a.outcome, a.http_status])).to.deep.equal([1, 2, 3, 4, 5].map((n) => [n, 'non_2xx', 500]));
    // waits of 5, 25, 125 and 625 s scaled by 0.001; none after the fifth
    rows.slice(0, 4).forEach((a, i) => {
      const wait = Date.parse(a.next_retry_at!) - Date.parse(a.attempted_at);
      expect(wait, `wait after attempt ${i + 1}`).to.be.at.least(5 ** (i + 1)).and.below(5 ** (i + 1) + 500);
    });
    expect(rows[4]!.next_retry_at).to.equal(null);
    // every attempt is one event (same id), a new delivery id, and signed afresh
    expect(new Set(arrivals.map((a) => a.headers['x-webhook-event-id'])).size).to.equal(1);
    expect(new Set(arrivals.map((a) => a.headers['x-webhook-delivery'])).size).to.equal(5);
    expect(arrivals.every((a) => a.svcValid && a.legacyValid)).to.equal(true);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // well past where a sixth attempt would be
    expect(r.count).to.equal(5);
    expect(await deliveries(hook.id)).to.have.length(5);
  });

  it('a 3xx is a failed attempt, never followed: a 302 to 169.254.169.254 reaches nothing but the receiver', async () => {
    const r = await receiver({ redirectTo: 'http://169.254.169.254/latest/meta-data/', status: 302 });
    const hook = await endpoint(r);
    await ping(hook.id);
    const [first] = await attemptsOf(hook.id, 1);
    expect(first).to.include({ outcome: 'redirect', http_status: 302 });
    expect(r.arrivals.every((a) => a.url === '/hook')).to.equal(true);
  });

  it('a hanging endpoint times out (the whole exchange), and does not hold up another endpoint', async () => {
    const slow = await receiver({ hang: true });
    const fast = await receiver();
    const slowHook = await endpoint(slow);
    const fastHook = await endpoint(fast);
    await ping(slowHook.id);
    await slow.waitFor(1);
    await ping(fastHook.id);
    await fast.waitFor(1);
    const [timedOut] = await attemptsOf(slowHook.id, 1);
    expect(timedOut).to.include({ outcome: 'timeout', http_status: null, attempt: 1 });
    expect(timedOut!.duration_ms).to.be.at.least(350);
    expect(timedOut!.next_retry_at).to.be.a('string');
  });

  it('a connection refused is a failed attempt, retried', async () => {
    const r = await receiver();
    const hook = await endpoint(r);
    await r.close();
    await ping(hook.id);
    const rows = await attemptsOf(hook.id, 2);
    expect(rows.every((a) => a.outcome === 'connection' && a.http_status === null)).to.equal(true);
  });

  it('a deleted endpoint gets nothing more, queued retries included', async () => {
    let answered = 0;
    const r = await receiver(() => (answered++ === 0 ? { status: 503 } : { status: 200 }));
    const hook = await endpoint(r);
    await svc.call('DELETE', `/connect/webhooks/${hook.id}`);
    expect((await ping(hook.id)).status).to.equal(409);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r.count).to.equal(0);
  });

  it('invoice events reach the endpoints subscribed to them, organisation-wide and by workspace, and no one else', async () => {
    const all = await receiver();
    const onlyDelivered = await receiver();
    const workspace = await receiver();
    await endpoint(all, 'invoice.created,invoice.queued,invoice.delivered,invoice.fs_acknowledged,invoice.received');
    await endpoint(onlyDelivered, 'invoice.delivered');
    const ws = await svc.call('POST', `/workspaces/${svc.demo.workspace_id}/webhooks`, { url: workspace.url(), events: 'invoice.created' });
    expect(ws.status).to.equal(201);
    toDelete.push(ws.body.id);
    workspace.secret = ws.body.secret;
    const [seller, buyer] = svc.demo.companies;
    await svc.services.validator(); // the send validates: its workers load the rule sets first
    const customer = await svc.call('POST', `/companies/${seller!.id}/customers`, { name: buyer!.name, vat_id: buyer!.vat_id, ico: buyer!.ico, dic: buyer!.dic, peppol_id: buyer!.peppol_id });
    const created = await svc.call('POST', `/companies/${seller!.id}/invoices`, {
      issue_date: '2026-11-24', due_date: '2026-12-08', customer_id: customer.body.id,
      lines: [{ item_name: 'Služba', quantity: '1', unit_price: '100.00', vat_rate: '23' }],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const invoiceId = created.body.id as string;
    const sent = await svc.call('POST', `/companies/${seller!.id}/invoices/${invoiceId}/send`);
    expect(sent.status, JSON.stringify(sent.body)).to.be.oneOf([200, 202]);
    const typesOf = (r: WebhookReceiver) => r.arrivals.map((a) => String(a.headers['x-webhook-event']));
    await eventually(async () => typesOf(all), (types) => ['invoice.created', 'invoice.queued', 'invoice.delivered', 'invoice.received', 'invoice.fs_acknowledged'].every((t) => types.includes(t)), {
      what: 'created, queued, delivered, received and fs_acknowledged',
    });
    await onlyDelivered.waitFor(1);
    await workspace.waitFor(1);
    expect(typesOf(onlyDelivered)).to.deep.equal(['invoice.delivered']);
    expect(typesOf(workspace)).to.include('invoice.created');
    for (const r of [all, onlyDelivered, workspace]) expect(r.arrivals.every((a) => a.svcValid && a.legacyValid), 'signatures').to.equal(true);
    const delivered = JSON.parse(onlyDelivered.arrivals[0]!.rawBody.toString('utf8')) as { event: string; data: { invoice_id: string } };
    expect(delivered).to.deep.include({ event: 'invoice.delivered' });
    expect(delivered.data.invoice_id).to.equal(invoiceId);
  });

  it('another organisation\'s invoices never reach this organisation\'s endpoints', async () => {
    const r = await receiver();
    await endpoint(r, 'invoice.created');
    const other = svc.demo.second_organisation;
    const created = await svc.call('POST', `/companies/${other.company_id}/invoices`, {
      issue_date: '2026-11-24', due_date: '2026-12-08',
      buyer: { name: 'Iná s.r.o.', vat_id: 'SK2020000004', street: 'Hlavná 1', city: 'Košice', postal_code: '04001', country_code: 'SK' },
      lines: [{ item_name: 'Služba', quantity: '1', unit_price: '100.00', vat_rate: '23' }],
    }, { 'x-api-key': other.api_key });
    expect(created.status).to.equal(201);
    const mine = await svc.call('POST', `/companies/${svc.demo.companies[0]!.id}/invoices`, {
      issue_date: '2026-11-24', due_date: '2026-12-08',
      buyer: { name: 'Iná s.r.o.', vat_id: 'SK2020000004', street: 'Hlavná 1', city: 'Košice', postal_code: '04001', country_code: 'SK' },
      lines: [{ item_name: 'Služba', quantity: '1', unit_price: '100.00', vat_rate: '23' }],
    });
    await eventually(async () => r.arrivals.map((a) => JSON.parse(a.rawBody.toString('utf8')) as { data: { invoice_id: string } }), (bodies) => bodies.some((b) => b.data.invoice_id === mine.body.id), {
      what: 'the own invoice.created',
    });
    expect(r.arrivals.map((a) => (JSON.parse(a.rawBody.toString('utf8')) as { data: { invoice_id: string } }).data.invoice_id)).not.to.include(created.body.id);
  });
});

describe('webhook delivery: the SSRF guard at delivery (loopback not allowed)', function () {
  this.timeout(120_000);
  let svc: TestService;
  let answers = 0;
  // DNS rebinding: the first answer (at create) is public, every later one is the receiver's loopback
  let flaky = 0;
  const resolve: Resolver = async (host) => {
    // resolves (public) at create, then DNS fails: a passing outage, not a private address
    if (host === 'flaky.public.test' && flaky++ === 0) return [{ address: '93.184.216.34', family: 4 }];
    if (host !== 'rebind.public.test') throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return [{ address: answers++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
  };

  before(async () => {
    svc = await startTestService({ resolve, webhooks: { allowLoopbackTargets: false } });
  });
  after(async () => svc?.close());

  it('a host that resolved public at create and loopback at delivery is blocked, not retried, and never reached', async () => {
    const r = await WebhookReceiver.start();
    try {
      const made = await svc.call('POST', '/connect/webhooks', { url: r.url('/hook', 'rebind.public.test') });
      expect(made.status).to.equal(201);
      await svc.call('POST', `/connect/webhooks/${made.body.id}/test`);
      const rows = await eventually(async () => (await svc.call('GET', `/connect/webhooks/${made.body.id}/deliveries`)).body.items as Attempt[], (a) => a.length >= 1, { what: 'the blocked attempt' });
      expect(rows[0]).to.include({ outcome: 'blocked', http_status: null, next_retry_at: null, attempt: 1 });
      await new Promise((resolveWait) => setTimeout(resolveWait, 500));
      expect(r.count).to.equal(0);
      expect((await svc.call('GET', `/connect/webhooks/${made.body.id}/deliveries`)).body.items).to.have.length(1);
    } finally {
      await r.close();
    }
  });

  it('a host whose DNS fails at delivery is a failed attempt (connection), retried, not blocked', async () => {
    const made = await svc.call('POST', '/connect/webhooks', { url: 'https://flaky.public.test/hook' });
    expect(made.status).to.equal(201);
    await svc.call('POST', `/connect/webhooks/${made.body.id}/test`);
    const rows = await eventually(async () => (await svc.call('GET', `/connect/webhooks/${made.body.id}/deliveries`)).body.items as Attempt[], (a) => a.length >= 2, { what: 'a retried attempt' });
    expect(rows.every((a) => a.outcome === 'connection' && a.http_status === null)).to.equal(true);
  });
});
