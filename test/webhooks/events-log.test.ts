import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { WebhookReceiver, type Answer } from '../support/webhook-receiver.ts';

type LastAttempt = { attempted_at: string; http_status: number | null; outcome: string };
type EventRecord = {
  event_id: string; event_type: string; created_at: string; queued_at: string; state: string; dropped_reason: string | null; attempts: number;
  next_attempt_at: string | null; last_attempt: LastAttempt | null; resends: number; last_resent_at: string | null;
};

/**
 * Nothing is lost: every event sent to an endpoint is listed with its state (GET …/events), and a
 * dropped or delivered one can be sent again (POST …/events/{event_id}/resend) through the
 * delivery queue: the same event id, a new delivery id. Retries are the spec's five, scaled to
 * milliseconds (WEBHOOK_BACKOFF_SCALE 0.001).
 */
describe('webhook events of an endpoint: listed, and resent when dropped', function () {
  this.timeout(180_000);
  let svc: TestService;
  const receivers: WebhookReceiver[] = [];
  const toDelete: string[] = [];
  const poll = { everyMs: 500 };

  before(async () => {
    // an attempt that hangs holds its event in `retrying` for five timeouts: long enough to be asked about
    svc = await startTestService({ webhooks: { timeoutMs: 1500 } });
  });
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await svc?.close();
  });
  // an organisation has at most 10 active endpoints: each test deletes its own
  afterEach(async () => {
    for (const id of toDelete.splice(0)) await svc.call('DELETE', `/connect/webhooks/${id}`);
  });

  async function endpoint(answer: Answer | ((index: number) => Answer)): Promise<{ id: string; receiver: WebhookReceiver }> {
    const receiver = await WebhookReceiver.start({ answer });
    receivers.push(receiver);
    const made = await svc.call('POST', '/connect/webhooks', { url: receiver.url(), events: ['invoice.created'] });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    receiver.secret = made.body.secret;
    toDelete.push(made.body.id);
    return { id: made.body.id, receiver };
  }
  const events = async (id: string, query = '') => (await svc.call('GET', `/connect/webhooks/${id}/events${query}`)).body as { items: EventRecord[]; total: number; page: number; page_size: number };
  const ping = async (id: string) => {
    const fired = await svc.call('POST', `/connect/webhooks/${id}/test`);
    expect(fired.status).to.equal(202);
    return fired.body.event_id as string;
  };
  const resend = (id: string, eventId: string, headers: Record<string, string> = {}) => svc.call('POST', `/connect/webhooks/${id}/events/${eventId}/resend`, undefined, headers);
  const stateOf = (id: string, eventId: string, state: string) =>
    eventually(async () => (await events(id)).items.find((e) => e.event_id === eventId), (e) => e?.state === state, { ...poll, what: `${eventId} ${state}` });

  it('an event that fails five times is listed as dropped; resent, it reaches the receiver with the same event id and a new delivery id, and is listed delivered', async () => {
    const { id, receiver } = await endpoint((index) => (index < 5 ? { status: 500 } : { status: 200 }));
    const eventId = await ping(id);
    const failed = (await receiver.waitFor(5)).slice(0, 5);
    const dropped = await stateOf(id, eventId, 'dropped');
    expect(dropped).to.deep.include({
      event_id: eventId, event_type: 'test.ping', state: 'dropped', dropped_reason: 'attempts_exhausted', attempts: 5, next_attempt_at: null, resends: 0, last_resent_at: null,
    });
    expect(dropped!.last_attempt).to.include({ http_status: 500, outcome: 'non_2xx' });
    // the automatic delivery keeps the spec's five attempts: nothing more comes by itself
    expect((await svc.call('GET', `/connect/webhooks/${id}/deliveries`)).body.items).to.have.length(5);
    expect(receiver.count).to.equal(5);

    const queued = await resend(id, eventId);
    expect(queued.status, JSON.stringify(queued.body)).to.equal(202);
    expect(queued.body.webhook_id).to.equal(id);
    expect(queued.body.event).to.include({ event_id: eventId, event_type: 'test.ping', state: 'retrying', dropped_reason: null, attempts: 5, resends: 1 });

    const [again] = (await receiver.waitFor(6)).slice(5);
    expect(again!.headers['x-webhook-event-id']).to.equal(eventId);
    expect(JSON.parse(again!.rawBody.toString('utf8'))).to.include({ id: eventId, event: 'test.ping' });
    expect(again!.rawBody.equals(failed[0]!.rawBody), 'the very body first sent').to.equal(true);
    expect(failed.map((a) => a.headers['x-webhook-delivery'])).not.to.include(again!.headers['x-webhook-delivery']);
    expect(again!.svcValid && again!.legacyValid, 'signed afresh').to.equal(true);

    const delivered = await stateOf(id, eventId, 'delivered');
    expect(delivered).to.deep.include({ state: 'delivered', dropped_reason: null, attempts: 6, resends: 1, next_attempt_at: null });
    expect(delivered!.last_attempt).to.include({ http_status: 200, outcome: 'success' });
    const [lastAttempt] = (await svc.call('GET', `/connect/webhooks/${id}/deliveries`)).body.items as { delivery_id: string; attempt: number; outcome: string }[];
    expect(lastAttempt).to.include({ delivery_id: again!.headers['x-webhook-delivery'], attempt: 1, outcome: 'success' });

    // a delivered event can be sent again too (a consumer that lost it)
    expect((await resend(id, eventId)).status).to.equal(202);
    const [third] = (await receiver.waitFor(7)).slice(6);
    expect(third!.headers['x-webhook-event-id']).to.equal(eventId);
    await stateOf(id, eventId, 'delivered');
  });

  it('lists every event sent to the endpoint, newest first, paged like the other lists', async () => {
    const { id, receiver } = await endpoint({ status: 204 });
    const first = await ping(id);
    await receiver.waitFor(1);
    const second = await ping(id);
    await receiver.waitFor(2);
    await stateOf(id, second, 'delivered');
    const page = await events(id);
    expect(page).to.include({ total: 2, page: 1, page_size: 20 });
    expect(page.items.map((e) => e.event_id)).to.deep.equal([second, first]);
    expect(page.items[0]).to.deep.include({ state: 'delivered', attempts: 1, last_attempt: page.items[0]!.last_attempt });
    expect(page.items[0]!.last_attempt).to.include({ http_status: 204, outcome: 'success' });
    const paged = await events(id, '?page=2&page_size=1');
    expect(paged).to.deep.equal({ items: [page.items[1]], total: 2, page: 2, page_size: 1 });
    expect((await svc.call('GET', `/connect/webhooks/${id}/events?page_size=101`)).status).to.equal(422);
  });

  it('refuses a resend while attempts are still to come (409 webhook_event_not_resendable), of an unknown event (404), and to a deactivated endpoint (409 webhook_inactive)', async () => {
    const { id, receiver } = await endpoint({ hang: true });
    const eventId = await ping(id);
    await receiver.waitFor(1);
    const retrying = (await events(id)).items[0];
    expect(retrying).to.include({ event_id: eventId, state: 'retrying', dropped_reason: null });
    const refused = await resend(id, eventId);
    expect([refused.status, refused.body.detail.error, refused.body.detail.state]).to.deep.equal([409, 'webhook_event_not_resendable', 'retrying']);

    const unknown = await resend(id, 'evt_00000000000000000000000000000000');
    expect([unknown.status, unknown.body.detail.error]).to.deep.equal([404, 'webhook_event_not_found']);

    expect((await svc.call('DELETE', `/connect/webhooks/${id}`)).status).to.equal(200);
    const cancelled = await stateOf(id, eventId, 'dropped');
    expect(cancelled!.dropped_reason).to.equal('endpoint_deactivated');
    const inactive = await resend(id, eventId);
    expect([inactive.status, inactive.body.detail.error]).to.deep.equal([409, 'webhook_inactive']);
  });

  it('another organisation\'s endpoint is 404 on both routes, and a repeat under one Idempotency-Key answers the first resend', async () => {
    const { id, receiver } = await endpoint({ status: 200 });
    const eventId = await ping(id);
    await receiver.waitFor(1);
    await stateOf(id, eventId, 'delivered');
    const other = { 'x-api-key': svc.demo.second_organisation.api_key };
    for (const [method, path] of [['GET', `/connect/webhooks/${id}/events`], ['POST', `/connect/webhooks/${id}/events/${eventId}/resend`]] as const) {
      const answer = await svc.call(method, path, undefined, other);
      expect([answer.status, answer.body.detail.error], `${method} ${path}`).to.deep.equal([404, 'webhook_not_found']);
    }
    const key = { 'idempotency-key': `resend-${eventId}` };
    const first = await resend(id, eventId, key);
    const repeat = await resend(id, eventId, key);
    expect([first.status, repeat.status]).to.deep.equal([202, 202]);
    expect(repeat.body).to.deep.equal(first.body);
    await receiver.waitFor(2);
    const listed = await stateOf(id, eventId, 'delivered');
    expect(listed!.resends).to.equal(1);
  });
});
