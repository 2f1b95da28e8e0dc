import { expect } from 'chai';
import { WebhookAgents } from '../../../src/modules/webhooks/transport/agents.ts';
import { RESPONSE_BODY_LIMIT, type WebhookRequest, sendWebhook } from '../../../src/modules/webhooks/transport/sender.ts';
import { legacySignature, svcSignature } from '../../../src/modules/webhooks/transport/signatures.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';

const SECRET = 'whsec_sender_test_secret_0123456789';
const BODY = '{"id":"7d1b3c9e-2f4a-4b8c-9d6e-1a2b3c4d5e6f","event":"test.ping","created_at":"2024-05-01T10:00:00Z","data":{"invoice_id":null,"text":"Žltý kôň"}}';

describe('webhook sender', () => {
  let receiver: WebhookReceiver;
  let agents: WebhookAgents;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start({ secret: SECRET });
    agents = new WebhookAgents();
  });
  afterEach(async () => {
    agents.destroyAll();
    await receiver.close();
  });

  function request(overrides: Partial<WebhookRequest> = {}): WebhookRequest {
    const t = Math.floor(Date.now() / 1000);
    return {
      url: overrides.url ?? receiver.url('/hooks/in?tenant=1'),
      address: '127.0.0.1',
      family: 4,
      headers: {
        'svc-signature': svcSignature(SECRET, t, BODY),
        'X-Webhook-Signature': legacySignature(SECRET, BODY),
        'X-Webhook-Event': 'test.ping',
        'X-Webhook-Delivery': '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
        'X-Webhook-Event-Id': '7d1b3c9e-2f4a-4b8c-9d6e-1a2b3c4d5e6f',
      },
      body: BODY,
      timeoutMs: 10_000,
      agent: agents.for('endpoint-1', 'http:'),
      ...overrides,
    };
  }

  it('POSTs the body and headers as given, and a 200 is a success', async () => {
    const result = await sendWebhook(request());
    expect(result).to.include({ outcome: 'success', http_status: 200 });
    expect(result.duration_ms).to.be.a('number').at.least(0);
    expect(result).not.to.have.property('error');

    const [arrival] = await receiver.waitFor(1);
    expect(arrival?.method).to.equal('POST');
    expect(arrival?.url).to.equal('/hooks/in?tenant=1');
    expect(arrival?.rawBody.toString('utf8')).to.equal(BODY);
    expect(arrival?.headers).to.include({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(BODY)),
      host: `127.0.0.1:${receiver.port}`,
      'x-webhook-event': 'test.ping',
      'x-webhook-delivery': '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
      'x-webhook-event-id': '7d1b3c9e-2f4a-4b8c-9d6e-1a2b3c4d5e6f',
    });
  });

  it('any 2xx is a success', async () => {
    receiver.answer = { status: 204 };
    expect(await sendWebhook(request())).to.include({ outcome: 'success', http_status: 204 });
    receiver.answer = { status: 299 };
    expect(await sendWebhook(request())).to.include({ outcome: 'success', http_status: 299 });
  });

  it('a 500 or a 404 is non_2xx', async () => {
    receiver.answer = { status: 500, body: 'boom' };
    expect(await sendWebhook(request())).to.include({ outcome: 'non_2xx', http_status: 500 });
    receiver.answer = { status: 404 };
    expect(await sendWebhook(request())).to.include({ outcome: 'non_2xx', http_status: 404 });
  });

  it('a 302 to the metadata address is a redirect, and is not followed', async () => {
    receiver.answer = (index) => (index === 0 ? { redirectTo: 'http://169.254.169.254/latest/meta-data/' } : { status: 200 });
    expect(await sendWebhook(request())).to.include({ outcome: 'redirect', http_status: 302 });
    expect(receiver.count).to.equal(1);
    // the next request on the same connection is the second arrival: nothing went out in between
    expect(await sendWebhook(request({ url: receiver.url('/after') }))).to.include({ outcome: 'success' });
    const arrivals = await receiver.waitFor(2);
    expect(arrivals.map((a) => a.url)).to.deep.equal(['/hooks/in?tenant=1', '/after']);
  });

  it('a 307 back to the receiver itself is not followed either', async () => {
    receiver.answer = (index) => (index === 0 ? { redirectTo: receiver.url('/followed'), status: 307 } : { status: 200 });
    expect(await sendWebhook(request())).to.include({ outcome: 'redirect', http_status: 307 });
    await sendWebhook(request({ url: receiver.url('/after') }));
    expect((await receiver.waitFor(2)).map((a) => a.url)).to.deep.equal(['/hooks/in?tenant=1', '/after']);
  });

  it('an endpoint that never answers is a timeout', async () => {
    receiver.answer = { hang: true };
    const result = await sendWebhook(request({ timeoutMs: 200 }));
    expect(result).to.include({ outcome: 'timeout', http_status: null });
    expect(result.duration_ms).to.be.at.least(195);
    expect(result.error).to.match(/200 ms/);
    expect(await receiver.waitFor(1)).to.have.length(1);
  });

  it('the timeout covers the body too: headers that came in time do not save a body that never ends', async () => {
    receiver.answer = { stall: true };
    expect(await sendWebhook(request({ timeoutMs: 200 }))).to.include({ outcome: 'timeout', http_status: 200 });
  });

  it('an answer slower than the timeout is a timeout', async () => {
    receiver.answer = { status: 200, delayMs: 2_000 };
    expect(await sendWebhook(request({ timeoutMs: 200 }))).to.include({ outcome: 'timeout' });
  });

  it('a closed port is a connection failure', async () => {
    const url = receiver.url();
    await receiver.close();
    const result = await sendWebhook(request({ url }));
    expect(result).to.include({ outcome: 'connection', http_status: null, error: 'ECONNREFUSED' });
    receiver = await WebhookReceiver.start(); // for afterEach
  });

  it('connects to the pinned address, never to where the host name would resolve', async () => {
    const result = await sendWebhook(request({ url: `http://example.invalid:${receiver.port}/pinned` }));
    expect(result).to.include({ outcome: 'success' });
    const [arrival] = await receiver.waitFor(1);
    expect(arrival?.headers.host).to.equal(`example.invalid:${receiver.port}`);
    expect(arrival?.url).to.equal('/pinned');
  });

  it('connects to a pinned IPv6 address', async function () {
    let six: WebhookReceiver;
    try {
      six = await WebhookReceiver.start({ host: '::1' });
    } catch {
      this.skip(); // no IPv6 loopback on this machine
    }
    try {
      const result = await sendWebhook(request({ url: `http://hooks.example.test:${six.port}/six`, address: '::1', family: 6 }));
      expect(result).to.include({ outcome: 'success' });
      expect((await six.waitFor(1))[0]?.headers.host).to.equal(`hooks.example.test:${six.port}`);
      expect(await sendWebhook(request({ url: six.url('/literal'), address: '::1', family: 6 }))).to.include({ outcome: 'success' });
      expect((await six.waitFor(2))[1]?.headers.host).to.equal(`[::1]:${six.port}`);
    } finally {
      await six.close();
    }
  });

  it('keeps the Host header the caller cannot override', async () => {
    await sendWebhook(request({ headers: { Host: 'evil.example', 'Content-Length': '1' } }));
    const [arrival] = await receiver.waitFor(1);
    expect(arrival?.headers.host).to.equal(`127.0.0.1:${receiver.port}`);
    expect(arrival?.rawBody.toString()).to.equal(BODY);
  });

  it('refuses a pinned address that is not of the family given, without connecting', async () => {
    const result = await sendWebhook(request({ address: '127.0.0.1', family: 6 }));
    expect(result.outcome).to.equal('connection');
    expect(receiver.count).to.equal(0);
  });

  it('signs so that a consumer verifies both signatures', async () => {
    await sendWebhook(request());
    const [arrival] = await receiver.waitFor(1);
    expect(arrival).to.include({ svcValid: true, legacyValid: true });
  });

  it('a bad signature or a timestamp 301 s old fails the consumer check', async () => {
    const old = Math.floor(Date.now() / 1000) - 301;
    await sendWebhook(request({ headers: { 'svc-signature': svcSignature(SECRET, old, BODY), 'X-Webhook-Signature': legacySignature('whsec_wrong', BODY) } }));
    await sendWebhook(request({ headers: { 'svc-signature': svcSignature('whsec_wrong', Math.floor(Date.now() / 1000), BODY) } }));
    const [stale, wrong] = await receiver.waitFor(2);
    expect(stale).to.include({ svcValid: false, legacyValid: false });
    expect(stale?.svc).to.deep.equal({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(wrong?.svc).to.deep.equal({ ok: false, reason: 'no_matching_signature' });
  });

  it('reuses a keep-alive connection for the next attempt', async () => {
    for (let i = 0; i < 3; i++) expect(await sendWebhook(request())).to.include({ outcome: 'success' });
    const arrivals = await receiver.waitFor(3);
    expect(new Set(arrivals.map((a) => a.remotePort)).size).to.equal(1);
  });

  it('reads at most 64 KiB of an answer, and still reports its status', async () => {
    receiver.answer = { status: 200, body: 'x'.repeat(RESPONSE_BODY_LIMIT * 4) };
    expect(await sendWebhook(request())).to.include({ outcome: 'success', http_status: 200 });
    receiver.answer = { status: 200 };
    expect(await sendWebhook(request())).to.include({ outcome: 'success' });
  });

  it('holds at most maxSockets connections per endpoint', async () => {
    const bounded = new WebhookAgents({ maxSockets: 2 });
    receiver.answer = { status: 200, delayMs: 20 };
    const results = await Promise.all(Array.from({ length: 10 }, () => sendWebhook(request({ agent: bounded.for('endpoint-2', 'http:') }))));
    bounded.destroyAll();
    expect(results.every((r) => r.outcome === 'success')).to.equal(true);
    expect(new Set(receiver.arrivals.map((a) => a.remotePort)).size).to.be.at.most(2);
  });

  it('works without an agent of its own (a shared pool per address)', async () => {
    expect(await sendWebhook(request({ agent: undefined }))).to.include({ outcome: 'success' });
  });

  it('an abort ends the attempt as a connection failure', async () => {
    receiver.answer = { hang: true };
    const controller = new AbortController();
    const pending = sendWebhook(request(), controller.signal);
    await receiver.waitFor(1);
    controller.abort();
    expect(await pending).to.include({ outcome: 'connection', error: 'aborted' });
    const already = new AbortController();
    already.abort();
    expect(await sendWebhook(request(), already.signal)).to.include({ outcome: 'connection', error: 'aborted' });
  });

  it('a header value that cannot be sent is a connection failure, not a throw', async () => {
    const result = await sendWebhook(request({ headers: { 'X-Webhook-Event': 'bad\r\nvalue' } }));
    expect(result.outcome).to.equal('connection');
    expect(receiver.count).to.equal(0);
  });

  it('a connection dropped without an answer is a connection failure', async () => {
    receiver.answer = { drop: true };
    expect(await sendWebhook(request())).to.include({ outcome: 'connection', http_status: null, error: 'ECONNRESET' });
    expect(receiver.count).to.equal(1);
  });

  it('a reused keep-alive connection the server dropped is tried once more on a fresh one', async () => {
    receiver.answer = (index) => (index === 1 ? { drop: true } : { status: 200 });
    expect(await sendWebhook(request())).to.include({ outcome: 'success' });
    expect(await sendWebhook(request())).to.include({ outcome: 'success' });
    const arrivals = await receiver.waitFor(3);
    expect(arrivals[0]?.remotePort).to.equal(arrivals[1]?.remotePort);
    expect(arrivals[2]?.remotePort).not.to.equal(arrivals[1]?.remotePort);
  });

  it('tries a dropped reused connection only once more', async () => {
    receiver.answer = (index) => (index === 0 ? { status: 200 } : { drop: true });
    await sendWebhook(request());
    expect(await sendWebhook(request())).to.include({ outcome: 'connection' });
    expect(receiver.count).to.equal(3);
  });
});
