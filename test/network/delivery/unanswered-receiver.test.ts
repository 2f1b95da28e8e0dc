import { expect } from 'chai';
import { eventually } from '../../support/poll.ts';
import { freshDatabase, type TestDatabase } from '../../support/database.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import type { DeliveryConfig } from '../../../src/platform/config.ts';

type Invoice = { id: string; status: string; peppol_delivery: { status: string; attempts: number; error: string | null } | null };
type HistoryEvent = { type: string; data: Record<string, unknown> };

/**
 * One buyer's Access Point never answers. Its invoice's attempts are a durable schedule (each
 * failed attempt names the next one's time), so the hundred other invoices sent meanwhile are
 * delivered while it is still retrying, and a restart in the middle keeps its schedule: the next
 * attempt is made after the restart, at its time.
 */
describe('delivery: a receiver that never answers holds up nobody, and its retries survive a restart', function () {
  this.timeout(900_000);
  // attempts end after 500 ms without an answer; retries after 2, 10, 50, 250 s and more: the leg does not give up during the test
  const delivery: Partial<DeliveryConfig> = { attemptTimeoutMs: 500, retryBaseMs: 2_000, maxAttempts: 8 };
  let database: TestDatabase;
  let svc: TestService;
  let sender: string;
  let healthyCustomer: string;
  let stuckCustomer: string;
  let stuckParticipant: string;

  const call = (...args: Parameters<TestService['call']>) => svc.call(...args);
  const read = async (id: string) => (await call('GET', `/companies/${sender}/invoices/${id}`)).body as Invoice;
  const history = async (id: string) => (await call('GET', `/companies/${sender}/invoices/${id}/history`)).body.events as HistoryEvent[];
  const failedAttempts = async (id: string) =>
    (await history(id)).filter((e) => e.type === 'DeliveryAttemptFailed' && e.data.leg === 'peppol').map((e) => e.data as { attempt: number; retry_at: string | null; failed_at: string });
  const sendOne = async (customerId: string) => {
    const created = await call('POST', `/companies/${sender}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customerId,
      lines: [{ item_name: 'Servis', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
    });
    expect(created.status).to.equal(201);
    const sent = await call('POST', `/companies/${sender}/invoices/${created.body.id}/send`);
    expect(sent.status).to.equal(202);
    return created.body.id as string;
  };
  const sendMany = async (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 5) ids.push(...(await Promise.all(Array.from({ length: Math.min(5, n - i) }, () => sendOne(healthyCustomer)))));
    return ids;
  };
  const reached = ['delivered', 'sent_fs', 'fs_acknowledged'];

  before(async () => {
    database = await freshDatabase();
    svc = await startTestService({ database, delivery });
    await svc.services.validator(); // its workers load the rule sets first: before any delivery can go
    sender = svc.demo.companies[0]!.id;
    const buyer = svc.demo.companies[1]!;
    healthyCustomer = (await call('POST', `/companies/${sender}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id })).body.id;
    // the second organisation's company: registered in the sandbox network, and its Access Point will say nothing
    const [stuck] = (await svc.services.readModels.query('SELECT name, vat_id, peppol_id FROM companies WHERE id = $1', [svc.demo.second_organisation.company_id])) as { name: string; vat_id: string; peppol_id: string }[];
    stuckParticipant = stuck!.peppol_id;
    stuckCustomer = (await call('POST', `/companies/${sender}/customers`, { name: stuck!.name, vat_id: stuck!.vat_id, peppol_id: stuck!.peppol_id })).body.id;
  });
  after(async () => {
    await svc?.close();
    await database?.drop();
  });

  it('delivers 100 invoices while one is retrying, and retries that one after a restart at its time', async () => {
    svc.sandbox.peppol.faults.unanswered.add(stuckParticipant);
    const stuck = await sendOne(stuckCustomer);
    const before = await sendMany(50);

    // two attempts failed: the second names a retry 10 s later, which the restart must keep
    const [, second] = await eventually(() => failedAttempts(stuck), (a) => a.length >= 2, { everyMs: 200 });
    expect(second!.retry_at).to.be.a('string');
    const scheduled = (await svc.services.readModels.query(`SELECT due_at FROM scheduled_work WHERE kind = 'peppol-attempt' AND key = $1`, [stuck])) as { due_at: Date }[];
    expect(scheduled).to.have.length(1);

    const demo = svc.demo;
    await svc.close();
    const restartedAt = Date.now();
    svc = await startTestService({ database, delivery, demo, unansweredParticipants: [stuckParticipant] });
    await svc.services.validator();
    const after = await sendMany(50);

    // every other invoice reaches the buyer while the stuck one is still queued and retrying
    const all = [...before, ...after];
    await eventually(async () => ({ done: (await Promise.all(all.map(read))).filter((i) => reached.includes(i.status)).length, stuck: await read(stuck) }),
      (s) => s.done === all.length, { withinMs: 600_000, everyMs: 1_000, what: 'all 100 delivered' }).then((s) => {
      expect(s.stuck.status).to.equal('queued');
      expect(s.stuck.peppol_delivery).to.include({ status: 'queued' });
      expect(s.stuck.peppol_delivery!.error).to.match(/no answer/);
    });

    // the schedule survived the restart: the restarted service made the next attempt, and not
    // before the time the attempt before it named (which one that is depends on how busy the
    // machine was: the third falls due 10 s after the second, maybe before the restart)
    const madeAfterRestart = (a: Awaited<ReturnType<typeof failedAttempts>>) => a.find((x) => Date.parse(x.failed_at) >= restartedAt);
    const attempts = await eventually(() => failedAttempts(stuck), (a) => madeAfterRestart(a) !== undefined, { withinMs: 600_000, everyMs: 200 });
    const next = madeAfterRestart(attempts)!;
    const previous = attempts.find((a) => a.attempt === next.attempt - 1)!;
    expect(next.attempt).to.be.at.least(3);
    const startedAt = Date.parse(next.failed_at) - (delivery.attemptTimeoutMs ?? 0);
    expect(startedAt).to.be.at.least(Date.parse(previous.retry_at!) - 50);
    expect((await read(stuck)).status).to.equal('queued');

    // one message, the same id on every attempt
    const arrivals = (await svc.sandbox.peppol.arrivals()).filter((a) => a.receiver_participant_id === stuckParticipant);
    expect(arrivals).to.have.length(1);
    expect(arrivals[0]!.arrivals).to.be.at.least(3);
  });
});
