import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { EMPTY } from 'rxjs';
import type { ReserveNumber } from '../../commands/invoices/numbering.ts';
import { SeriesReservations } from '../../src/modules/invoices/series-reservations.ts';
import { WrongExpectedRevision, type EventStore, type NewEvent, type RecordedEvent } from '../../src/platform/eventstore/port.ts';

/** One-stream store that counts appends and checks expected revisions like the real adapters. */
function fakeStore() {
  const events: RecordedEvent[] = [];
  const reads: number[] = [];
  let appends = 0;
  const store: EventStore = {
    async append(streamId: string, batch: NewEvent[], expected) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const last = events.length - 1;
      if (expected !== 'any' && (expected === 'no_stream' ? last !== -1 : expected !== last)) throw new WrongExpectedRevision(streamId, expected, last);
      appends++;
      for (const e of batch) events.push({ ...e, streamId, revision: events.length, position: String(events.length).padStart(8, '0'), recordedAt: new Date() });
      return { nextRevision: events.length - 1, position: String(events.length).padStart(8, '0') };
    },
    // one stream only: enough for a caller that starts a single stream this way
    async appendToNewStreams(streams) {
      const results = [];
      for (const { streamId, events: batch } of streams) results.push(await store.append(streamId, batch, 'no_stream'));
      return results;
    },
    appendToStreams: () => Promise.reject(new Error('not used by series reservations')),
    readStream: async (_streamId, from = 0) => (reads.push(from), events.slice(from)),
    streamHead: async () => {
      const last = events.at(-1);
      return last ? { revision: last.revision, position: last.position } : null;
    },
    readAll: async () => [],
    subscribe: () => EMPTY,
    appended$: EMPTY,
    appendedTypes$: EMPTY,
    close: async () => undefined,
  };
  return { store, events, reads, appends: () => appends };
}

const reserve = (pattern = 'FA{year}{seq:4}'): ReserveNumber => ({ type: 'ReserveNumber', series: 'default', pattern, year: '2026', invoice_id: randomUUID(), at: '2026-11-23T10:00:00Z' });

describe('series reservations (group commit)', () => {
  it('gives concurrent reservations consecutive numbers in fewer appends than reservations', async () => {
    const { store, appends } = fakeStore();
    const series = new SeriesReservations({ store, ids: { next: randomUUID } });
    const reserved = await Promise.all(Array.from({ length: 30 }, () => series.reserve('series-1', reserve(), {})));
    expect(reserved.map((e) => e.data.seq)).to.deep.equal(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(appends()).to.be.lessThan(30);
  });

  it('refuses one reservation with a bad pattern alone; the others of its group are numbered', async () => {
    const { store } = fakeStore();
    const series = new SeriesReservations({ store, ids: { next: randomUUID } });
    const outcomes = await Promise.allSettled([series.reserve('s', reserve(), {}), series.reserve('s', reserve('FA{NOPE}'), {}), series.reserve('s', reserve(), {}), series.reserve('s', reserve(), {})]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.data.seq] : []))).to.deep.equal([1, 2, 3]);
  });

  it('notices another instance reserving in between and continues after its number', async () => {
    const { store, events } = fakeStore();
    const ours = new SeriesReservations({ store, ids: { next: randomUUID } });
    const theirs = new SeriesReservations({ store, ids: { next: randomUUID } });
    await ours.reserve('s', reserve(), {});
    await theirs.reserve('s', reserve(), {});
    const next = await Promise.all([ours.reserve('s', reserve(), {}), ours.reserve('s', reserve(), {})]);
    expect(next.map((e) => e.data.seq)).to.deep.equal([3, 4]);
    expect(events.map((e) => e.data.seq)).to.deep.equal([1, 2, 3, 4]);
  });

  it('catches up on what another instance wrote by reading only its events, not the series again', async () => {
    const { store, events, reads } = fakeStore();
    const ours = new SeriesReservations({ store, ids: { next: randomUUID } });
    const theirs = new SeriesReservations({ store, ids: { next: randomUUID } });
    for (let i = 0; i < 5; i++) await ours.reserve('s', reserve(), {});
    await theirs.reserve('s', reserve(), {});
    await theirs.reserve('s', reserve(), {});
    reads.length = 0;
    const next = await ours.reserve('s', reserve(), {});
    expect(next.data.seq).to.equal(8);
    expect(reads).to.deep.equal([5]); // ours held revision 4: it read from 5 on, the two events of theirs
    expect(events.map((e) => e.data.seq)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
