import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { ReserveNumber } from '../../commands/invoices/numbering.ts';
import type { NumberedDocument } from '../../src/modules/invoices/series-reservations.ts';
import { SeriesReservations } from '../../src/modules/invoices/series-reservations.ts';
import { VersionMismatch } from '../../src/platform/handling/append.ts';
import type { EventStore, NewEvent } from '../../src/platform/eventstore/port.ts';
import { freshEventStore } from '../support/database.ts';

const reserve = (pattern = 'FA{year}{seq:4}'): ReserveNumber => ({ type: 'ReserveNumber', series: 'default', pattern, year: '2026', invoice_id: randomUUID(), at: '2026-11-23T10:00:00Z' });
const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ id: randomUUID(), type, data, metadata: {} });

/** A document written on a stream of its own with its number's claim; `at` names the revision its stream must be at. */
function document(stream = `doc-${randomUUID()}`, at: { newStream: true } | { ifMatch: number } = { newStream: true }): NumberedDocument<{ number: string; stream: string }> {
  return {
    decide: (number) => ({
      claim: `claim-test-${number}`,
      writes: [
        { streamId: stream, events: [event('DocumentWritten', { number })], at },
        { streamId: `claim-test-${number}`, events: [event('NumberClaimed', { number })], at: { newStream: true } },
      ],
      done: () => ({ number, stream }),
    }),
  };
}

/**
 * Issue 37 item 1: a number is taken only by a document that is written. The series' reservation
 * rides in one append with its document (GroupCommit.submitWith), on a real store.
 */
describe('series reservations: a number only with its document', function () {
  this.timeout(60_000);
  let store: EventStore;
  let close: () => Promise<void>;
  let multiStreamAppends = 0;
  let reads: number[] = [];

  beforeEach(async () => {
    const fresh = await freshEventStore();
    close = fresh.close;
    multiStreamAppends = 0;
    reads = [];
    // counts what the series writes and reads
    const counted: Partial<EventStore> = {
      appendToStreams: (writes) => {
        multiStreamAppends++;
        if (writes.some((w) => w.streamId.startsWith('poisoned-'))) return Promise.reject(new Error('a bug in one document\'s write'));
        return fresh.store.appendToStreams(writes);
      },
      readStream: (streamId, from) => (streamId === 's' && reads.push(from ?? 0), fresh.store.readStream(streamId, from)),
    };
    store = new Proxy(fresh.store, { get: (target, key, receiver) => (key in counted ? counted[key as keyof EventStore] : Reflect.get(target, key, receiver)) });
  });
  afterEach(async () => close());

  const series = () => new SeriesReservations({ store, ids: { next: randomUUID } });
  const seqs = async () => (await store.readStream('s')).map((e) => (e.data as { seq: number }).seq);

  it('numbers concurrent documents one after another, in fewer appends than documents', async () => {
    const ours = series();
    const written = await Promise.all(Array.from({ length: 30 }, () => ours.write('s', reserve(), {}, document())));
    expect(written.map((w) => w.number)).to.deep.equal(Array.from({ length: 30 }, (_, i) => `FA2026${String(i + 1).padStart(4, '0')}`));
    expect(multiStreamAppends).to.be.lessThan(30);
    for (const { stream, number } of written) expect((await store.readStream(stream))[0]?.data).to.deep.equal({ number });
  });

  it('refuses a reservation with a bad pattern, or a document its own decision refuses, alone: neither takes a number', async () => {
    const ours = series();
    const refusing: NumberedDocument<never> = { decide: () => { throw new Error('the document refuses'); } };
    const outcomes = await Promise.allSettled([
      ours.write('s', reserve(), {}, document()), ours.write('s', reserve('FA{NOPE}'), {}, document()),
      ours.write('s', reserve(), {}, refusing), ours.write('s', reserve(), {}, document()),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(await seqs()).to.deep.equal([1, 2]);
  });

  it('leaves out a document whose stream moved (its If-Match is stale): a 412 for it, and no number', async () => {
    const ours = series();
    await ours.write('s', reserve(), {}, document('invoice-1'));
    const outcomes = await Promise.allSettled([
      ours.write('s', reserve(), {}, document()),
      ours.write('s', reserve(), {}, document('invoice-1', { ifMatch: 7 })),
      ours.write('s', reserve(), {}, document()),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).to.be.instanceOf(VersionMismatch);
    expect(outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.number] : []))).to.deep.equal(['FA20260002', 'FA20260003']);
    expect(await seqs()).to.deep.equal([1, 2, 3]);
  });

  it('never puts two documents writing one stream in one append: the second loses to the first (six credit notes at one If-Match)', async () => {
    const ours = series();
    await ours.write('s', reserve(), {}, document('invoice-1'));
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => ours.write('s', reserve(), {}, document('invoice-1', { ifMatch: 0 }))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    expect(outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof VersionMismatch)).to.have.length(5);
    expect(await seqs()).to.deep.equal([1, 2]);
  });

  it('a document whose write fails for another reason fails alone: the rest of its group is written, numbered without it', async () => {
    const ours = series();
    const outcomes = await Promise.allSettled([
      ours.write('s', reserve(), {}, document()), ours.write('s', reserve(), {}, document('poisoned-1')), ours.write('s', reserve(), {}, document()),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.number] : []))).to.deep.equal(['FA20260001', 'FA20260002']);
    expect(await seqs()).to.deep.equal([1, 2]);
  });

  it('skips a number whose claim is someone else\'s and numbers the document again', async () => {
    const ours = series();
    await store.appendToNewStreams([{ streamId: 'claim-test-FA20260001', events: [event('NumberClaimed')] }, { streamId: 'claim-test-FA20260003', events: [event('NumberClaimed')] }]);
    const written = await Promise.all([ours.write('s', reserve(), {}, document()), ours.write('s', reserve(), {}, document()), ours.write('s', reserve(), {}, document())]);
    expect(written.map((w) => w.number)).to.deep.equal(['FA20260002', 'FA20260004', 'FA20260005']);
    expect(await seqs()).to.deep.equal([2, 4, 5]);
  });

  it('notices another instance numbering in between and goes on after its number, reading only what it wrote', async () => {
    const ours = series();
    const theirs = series();
    for (let i = 0; i < 5; i++) await ours.write('s', reserve(), {}, document());
    await theirs.write('s', reserve(), {}, document());
    await theirs.write('s', reserve(), {}, document());
    reads = [];
    const next = await Promise.all([ours.write('s', reserve(), {}, document()), ours.write('s', reserve(), {}, document())]);
    expect(next.map((w) => w.number)).to.deep.equal(['FA20260008', 'FA20260009']);
    expect(reads).to.deep.equal([5]); // ours held revision 4: it read from 5 on, the two events of theirs
    expect(await seqs()).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
