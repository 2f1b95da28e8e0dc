import { expect } from 'chai';
import { pino } from 'pino';
import { systemClock, type Clock } from '../../src/platform/ports/clock.ts';
import { WebhookDeliveryWorker } from '../../src/modules/webhooks/delivery-worker.ts';
import { webhookQueue } from '../../src/modules/webhooks/queue/store.ts';
import { sendWebhook } from '../../src/modules/webhooks/transport/sender.ts';
import { checkTarget, systemResolver } from '../../src/platform/http-client/target-guard.ts';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Pending retries are rows: a worker that stops (a restart) leaves them, and the next worker on the
 * same database makes them when they fall due, by its clock (a clock port, here moved on 6 s
 * instead of waiting for the real 5 s retry).
 */
describe('webhook delivery across a restart of the worker', function () {
  this.timeout(120_000);
  let svc: TestService;
  let receiver: WebhookReceiver;

  before(async () => {
    svc = await startTestService({ runReactors: false });
    let answered = 0;
    receiver = await WebhookReceiver.start({ answer: () => (answered++ === 0 ? { status: 500 } : { status: 200 }) });
  });
  after(async () => {
    await receiver?.close();
    await svc?.close();
  });

  const worker = (clock: Clock) => new WebhookDeliveryWorker({
    db: svc.services.readModels, queue: webhookQueue(svc.services.readModels), clock, log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), secrets: svc.services.webhookSecrets,
    config: { ...svc.services.config.webhooks, backoffScale: 1 },
    checkTarget: (url) => checkTarget(url, { allowLoopback: true, resolve: systemResolver }), send: sendWebhook,
  });
  const row = async (endpointId: string) => {
    const rows: { status: string; attempts: number; next_attempt_at: Date }[] = await svc.services.readModels.query(
      'SELECT status, attempts, next_attempt_at FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId]);
    return rows[0];
  };

  it('a retry pending when the worker stops is made by the next worker when due, signed with the stored secret', async () => {
    const made = await svc.call('POST', '/connect/webhooks', { url: receiver.url(), events: 'test.ping' });
    expect(made.status).to.equal(201);
    receiver.secret = made.body.secret;
    const endpointId = made.body.id as string;
    const body = JSON.stringify({ id: 'c0ffee00-0000-4000-8000-000000000001', event: 'test.ping', created_at: new Date().toISOString(), data: { invoice_id: null } });
    await webhookQueue(svc.services.readModels).enqueue([{
      endpoint_id: endpointId, event_id: 'c0ffee00-0000-4000-8000-000000000001', organisation_id: svc.demo.organisation_id, event_type: 'test.ping', body,
      occurred_at: new Date().toISOString(),
    }], new Date().toISOString());

    const first = worker(systemClock);
    first.start();
    first.queued([endpointId]);
    await receiver.waitFor(1);
    const failed = await eventually(() => row(endpointId), (r) => r?.attempts === 1, { what: 'the failed attempt recorded' });
    await first.stop();
    expect(failed!.status).to.equal('pending');
    const wait = new Date(failed!.next_attempt_at).getTime() - Date.now();
    expect(wait).to.be.above(3_000).and.at.most(5_000); // the first retry waits 5 s

    const later: Clock = { now: () => new Date(Date.now() + 6_000) };
    const second = worker(later);
    second.start();
    try {
      await receiver.waitFor(2);
      const done = await eventually(() => row(endpointId), (r) => r?.status === 'delivered', { what: 'delivered by the second worker' });
      expect(done!.attempts).to.equal(2);
      expect(receiver.arrivals.map((a) => a.svcValid && a.legacyValid)).to.deep.equal([true, true]);
      expect(receiver.arrivals[1]!.rawBody.toString('utf8')).to.equal(body);
      expect(receiver.arrivals[0]!.headers['x-webhook-delivery']).not.to.equal(receiver.arrivals[1]!.headers['x-webhook-delivery']);
    } finally {
      await second.stop();
    }
  });
});
