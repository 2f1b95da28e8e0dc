import { expect } from 'chai';
import { pino } from 'pino';
import { scheduleStore, ScheduledWorker, type ClaimedWork, type ScheduleHandler } from '../../src/platform/schedule/index.ts';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';

const log = pino({ level: 'silent' });
const clock = { now: () => new Date() };

/** The schedule's statements and its worker against the real schema (PGlite, or Postgres with DATABASE_URL). */
describe('scheduled work (src/platform/schedule)', function () {
  this.timeout(120_000);
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ runReactors: false });
  });
  after(async () => svc?.close());
  beforeEach(async () => svc.services.readModels.query('DELETE FROM scheduled_work'));

  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
  const me = 'owner-1';
  const row = (key: string, lane: string, due: Date, kind = 'k') => ({ kind, key, lane, ref: `ref-${key}`, due_at: due });

  it('claims what is due, per lane and kind, leased; finishing moves or removes it, unless it was scheduled again meanwhile', async () => {
    const store = scheduleStore(svc.services.readModels);
    await store.schedule([row('a1', 'A', at(0)), row('a2', 'A', at(1)), row('b1', 'B', at(2)), row('later', 'C', at(60)), row('other', 'D', at(0), 'other-kind')], at(0));
    const claimed = await store.claim(['k'], at(10), 10, 1, new Map(), at(40), me);
    expect(claimed.map((c) => c.key)).to.deep.equal(['a1', 'b1']); // one of lane A, earliest first; not yet due and other kinds left
    expect(claimed[0]).to.include({ ref: 'ref-a1', runs: 1 });
    expect(await store.claim(['k'], at(11), 10, 1, new Map([['A', 1]]), at(41), me)).to.deep.equal([]); // a2's lane is busy; the others are leased
    expect((await store.claim(['k'], at(11), 10, 1, new Map(), at(41), me)).map((c) => c.key)).to.deep.equal(['a2']);
    expect(await store.next(['k'], at(11))).to.deep.equal(at(60));

    await store.finish(claimed[0]!, null, me); // done: gone
    await store.schedule([row('b1', 'B', at(5))], at(12)); // a repeated reaction while b1 runs
    await store.finish(claimed[1]!, at(100), me); // kept at the new time, released
    const left = await store.list('k');
    expect(left.map((r) => [r.key, r.due_at.toISOString(), r.lease_until])).to.deep.include(['b1', at(5).toISOString(), null]);
    expect(left.map((r) => r.key)).to.not.include('a1');
  });

  it('a lane with runs in flight here gets only its free slots, so a claim takes nothing it would give back', async () => {
    const store = scheduleStore(svc.services.readModels);
    await store.schedule([...['a1', 'a2', 'a3'].map((k, i) => row(k, 'A', at(i))), row('b1', 'B', at(3)), row('b2', 'B', at(4))], at(0));
    const claimed = await store.claim(['k'], at(10), 10, 3, new Map([['A', 2], ['B', 3]]), at(40), me);
    expect(claimed.map((c) => c.key)).to.deep.equal(['a1']); // A has one slot free, B none
    expect((await store.claim(['k'], at(10), 10, 3, new Map([['A', 1]]), at(40), me)).map((c) => c.key)).to.deep.equal(['a2', 'a3', 'b1', 'b2']);
  });

  it('a lease that ran out (a crashed instance) is taken again; two claims never take one row', async () => {
    const store = scheduleStore(svc.services.readModels);
    await store.schedule(Array.from({ length: 20 }, (_, i) => row(`r${i}`, `L${i}`, at(0))), at(0));
    const [a, b] = await Promise.all([store.claim(['k'], at(1), 20, 1, new Map(), at(31), me), store.claim(['k'], at(1), 20, 1, new Map(), at(31), me)]);
    const keys = [...a!, ...b!].map((c) => c.key);
    expect(new Set(keys).size).to.equal(keys.length);
    expect(keys).to.have.length(20);
    expect(await store.claim(['k'], at(30), 20, 1, new Map(), at(60), me)).to.deep.equal([]);
    expect(await store.claim(['k'], at(31), 20, 1, new Map(), at(61), me)).to.have.length(20);
  });

  it('a lane that hangs holds only its own slots: every other row runs meanwhile, and a stop gives the hanging one back', async () => {
    const store = scheduleStore(svc.services.readModels);
    const ran: string[] = [];
    const handler: ScheduleHandler = {
      kind: 'k',
      async run(work: ClaimedWork, signal: AbortSignal) {
        if (work.lane === 'stuck') await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
        ran.push(work.key);
        return null;
      },
    };
    const worker = new ScheduledWorker({ store, clock, log }, [handler], { concurrency: 4, perLane: 2, leaseMs: 600_000, pollMs: 50 });
    worker.start();
    try {
      await worker.add([row('s1', 'stuck', new Date()), row('s2', 'stuck', new Date()), row('s3', 'stuck', new Date())]);
      await worker.add(Array.from({ length: 30 }, (_, i) => row(`ok${i}`, `lane${i % 5}`, new Date())));
      await eventually(async () => ran.length, (n) => n === 30);
      expect(ran.filter((k) => k.startsWith('s'))).to.deep.equal([]);
      const stuck = await store.list('k');
      expect(stuck.map((r) => r.key).sort()).to.deep.equal(['s1', 's2', 's3']);
      expect(stuck.filter((r) => r.lease_until !== null)).to.have.length(2); // two in flight (its lane's share), the third waits
    } finally {
      await worker.stop();
    }
    expect((await store.list('k')).filter((r) => r.lease_until !== null)).to.deep.equal([]); // given back: a restart runs them at once
  });

  it('runs a step again at the time it names, and again after a failure', async () => {
    const store = scheduleStore(svc.services.readModels);
    const runs: { key: string; at: number }[] = [];
    let failOnce = true;
    const handler: ScheduleHandler = {
      kind: 'k',
      async run(work) {
        runs.push({ key: work.key, at: Date.now() });
        if (work.key === 'fails' && failOnce) {
          failOnce = false;
          throw new Error('the database went away');
        }
        return work.key === 'twice' && work.runs === 1 ? new Date(Date.now() + 300) : null;
      },
    };
    const worker = new ScheduledWorker({ store, clock, log }, [handler], { concurrency: 4, perLane: 2, leaseMs: 60_000, pollMs: 50 });
    worker.start();
    try {
      await worker.add([row('twice', 'a', new Date()), row('fails', 'b', new Date())]);
      await eventually(async () => runs, (r) => r.filter((x) => x.key === 'twice').length === 2 && r.filter((x) => x.key === 'fails').length === 2);
      const [first, second] = runs.filter((x) => x.key === 'twice');
      expect(second!.at - first!.at).to.be.at.least(290);
      await eventually(() => store.list('k'), (rows) => rows.length === 0);
    } finally {
      await worker.stop();
    }
  });
});
