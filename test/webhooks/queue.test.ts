import { expect } from 'chai';
import { webhookQueue, type AttemptRecord } from '../../src/modules/webhooks/queue/store.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** The delivery queue's statements against the real schema (PGlite, or Postgres with DATABASE_URL). */
describe('webhook delivery queue', function () {
  this.timeout(120_000);
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ runReactors: false });
  });
  after(async () => svc?.close());

  const endpoint = 'a0000000-0000-4000-8000-000000000001';
  const row = (eventId: string) => ({ endpoint_id: endpoint, event_id: eventId, organisation_id: 'b0000000-0000-4000-8000-000000000001', event_type: 'test.ping', body: '{}', occurred_at: '2026-01-01T00:00:00.000Z' });
  const attempt = (eventId: string, status: AttemptRecord['status'], at: string): AttemptRecord => ({
    delivery_id: crypto.randomUUID(), endpoint_id: endpoint, event_id: eventId, event_type: 'test.ping', attempt: 1, attempted_at: at, duration_ms: 3,
    http_status: status === 'delivered' ? 200 : 500, outcome: status === 'delivered' ? 'success' : 'non_2xx', next_retry_at: status === 'pending' ? at : null, status,
  });

  it('queues once per endpoint and event, leases what it claims, and forgets only what is final and old', async () => {
    const queue = webhookQueue(svc.services.readModels);
    await svc.services.readModels.query(
      `INSERT INTO webhook_endpoints (id, organisation_id, url, events, is_active, created_at, secret_ciphertext) VALUES ($1, $2, 'https://x.test/', '{test.ping}', true, now(), 'v1.x')`,
      [endpoint, 'b0000000-0000-4000-8000-000000000001']);
    await queue.enqueue([row('old-done'), row('old-pending'), row('new-done')], '2026-01-01T00:00:00.000Z');
    await queue.enqueue([row('old-done')], '2026-01-02T00:00:00.000Z'); // a repeated fan-out: kept once
    const claimed = await queue.claim(endpoint, 10, '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:31.000Z');
    expect(claimed.map((c) => c.event_id).sort()).to.deep.equal(['new-done', 'old-done', 'old-pending']);
    expect(await queue.claim(endpoint, 10, '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:32.000Z')).to.deep.equal([]); // leased
    // rows under way are not due; the next look is at the next retry still to come (none yet: the poll)
    expect(await queue.due('2026-01-01T00:00:02.000Z')).to.deep.equal({ endpoints: [], next: null });
    await queue.record([attempt('old-done', 'delivered', '2026-01-01T00:00:01.000Z'), attempt('old-pending', 'pending', '2026-03-01T00:00:00.000Z'), attempt('new-done', 'delivered', '2026-01-01T00:00:01.000Z')]);
    expect(await queue.due('2026-02-01T00:00:00.000Z')).to.deep.equal({ endpoints: [], next: new Date('2026-03-01T00:00:00.000Z') });
    expect(await queue.due('2026-03-01T00:00:00.000Z')).to.deep.equal({ endpoints: [endpoint], next: null });
    expect(await queue.due('2026-03-01T00:00:00.000Z', [endpoint])).to.deep.equal({ endpoints: [], next: null }); // its lane is open
    await svc.services.readModels.query(`UPDATE webhook_deliveries SET enqueued_at = '2026-03-01T00:00:00Z' WHERE event_id = 'new-done'`);
    const pruned = await queue.prune(new Date('2026-03-05T00:00:00.000Z'));
    expect(pruned).to.deep.equal({ deliveries: 1, attempts: 2 });
    const left: { event_id: string }[] = await svc.services.readModels.query('SELECT event_id FROM webhook_deliveries ORDER BY event_id');
    expect(left.map((r) => r.event_id)).to.deep.equal(['new-done', 'old-pending']);
    expect((await queue.attempts(endpoint)).items.map((a) => a.event_id)).to.deep.equal(['old-pending']);
  });

  it('the event log: a resend takes only a finished row, starts a new round, and a batch recorded twice is counted once', async () => {
    const queue = webhookQueue(svc.services.readModels);
    const id = 'a0000000-0000-4000-8000-000000000002';
    const row2 = { ...row('logged'), endpoint_id: id };
    await queue.enqueue([row2], '2026-04-01T00:00:00.000Z');
    expect(await queue.resend(id, 'logged', '2026-04-01T00:00:00.500Z'), 'pending: not taken').to.equal(null);
    const failures = [1, 2, 3, 4, 5].map((n) => ({
      ...attempt('logged', n === 5 ? 'failed' : 'pending', `2026-04-01T00:0${n}:00.000Z`), endpoint_id: id, attempt: n,
    }) as AttemptRecord);
    await queue.record(failures);
    await queue.record(failures); // written again after a lost answer: changes nothing
    expect(await queue.event(id, 'logged')).to.deep.include({ status: 'failed', attempts_total: 5, last_http_status: 500, last_outcome: 'non_2xx', resends: 0 });
    const resent = await queue.resend(id, 'logged', '2026-04-02T00:00:00.000Z');
    expect(resent).to.deep.include({ status: 'pending', attempts_total: 5, resends: 1 });
    expect(await queue.resend(id, 'logged', '2026-04-02T00:00:00.100Z'), 'a second resend at once').to.equal(null);
    const [claimed] = await queue.claim(id, 1, '2026-04-02T00:00:01.000Z', '2026-04-02T00:00:31.000Z');
    expect(claimed).to.include({ event_id: 'logged', attempts: 0, body: '{}' });
    await queue.record([{ ...attempt('logged', 'delivered', '2026-04-02T00:00:01.000Z'), endpoint_id: id, attempt: 1 }]);
    expect(await queue.event(id, 'logged')).to.deep.include({ status: 'delivered', attempts_total: 6, last_http_status: 200, last_outcome: 'success', resends: 1 });
    expect((await queue.events(id, { page: 1, pageSize: 20 })).total).to.equal(1);
  });
});
