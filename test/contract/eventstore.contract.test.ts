import { expect } from 'chai';
import pg from 'pg';
import type { Subscription } from 'rxjs';
import { createEsdbEventStore } from '../../src/platform/eventstore/esdb/index.ts';
import {
  EVENT_CONTRACTS,
  START,
  WrongExpectedRevision,
  type EventContracts,
  type EventStore,
  type NewEvent,
  type NewStream,
  type Position,
  type StreamWrite,
  type RecordedEvent,
} from '../../src/platform/eventstore/index.ts';
import { createPostgresEventStore } from '../../src/platform/eventstore/postgres/index.ts';
import { freshDatabase } from '../support/database.ts';
import { endPool, eventually, mark, newEvent, readAllOf, sleep, streamId } from './support.ts';

interface Harness {
  store: EventStore;
  /** the append's position is exactly its last event's (postgres); EventStoreDB only promises <= */
  exactAppendPosition: boolean;
  /** appendToNewStreams and appendToStreams write all streams or none (postgres); EventStoreDB writes them one by one */
  atomicNewStreams: boolean;
  teardown(): Promise<void>;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/**
 * A type of this suite only, at payload version 3 (every real type keeps its own contract): v1 kept
 * `cents` as a number, v2 made it `amount`, a decimal string, v3 renamed `amount` to `total`.
 * Every adapter's store is made with these contracts, so the suite sees its reads upcast.
 */
const RENAMED = 'ContractAmountRenamed';
const SUITE_CONTRACTS: EventContracts = {
  versions: { ...EVENT_CONTRACTS.versions, [RENAMED]: 3 },
  upcasters: {
    ...EVENT_CONTRACTS.upcasters,
    [RENAMED]: [
      ({ cents, ...rest }) => ({ ...rest, amount: (Number(cents) / 100).toFixed(2) }),
      ({ amount, ...rest }) => ({ ...rest, total: amount }),
    ],
  },
};

/** An event of RENAMED as a release at `version` wrote it (the version in its metadata, as it is stored). */
function renamed(version: 1 | 2 | 3, n: number): NewEvent {
  const data = version === 1 ? { n, cents: 1250 } : version === 2 ? { n, amount: '12.50' } : { n, total: '12.50' };
  const event = newEvent(RENAMED, data);
  return { ...event, metadata: { ...event.metadata, version } };
}

/** The one behaviour every adapter must have; `setup` gives a store (made with SUITE_CONTRACTS) for the whole suite. */
function eventStoreContract(setup: () => Promise<Harness>): void {
  let harness: Harness | undefined;
  let store: EventStore;

  before(async function () {
    this.timeout(60_000);
    harness = await setup();
    store = harness.store;
  });
  after(async () => harness?.teardown());

  it('reads back an appended event with its data and metadata', async () => {
    const stream = streamId('roundtrip');
    const event = newEvent('InvoiceIssued', { number: 'FA-2025-001', amount: '123.45', lines: [{ vat: '20' }] });
    const before = await mark(store);
    const result = await store.append(stream, [event], 'no_stream');

    const [read, ...rest] = await store.readStream(stream);
    expect(rest).to.deep.equal([]);
    expect(read).to.include({ id: event.id, streamId: stream, revision: 0, type: 'InvoiceIssued' });
    expect(read?.position).to.equal((await readAllOf(store, before, [stream], 1))[0]?.position);
    // read-your-writes: a subscriber that has seen the event has reached the append's position
    expect(result.position > before && result.position <= (read?.position ?? '')).to.equal(true);
    if (harness?.exactAppendPosition) expect(result.position).to.equal(read?.position);
    expect(read?.data).to.deep.equal(event.data);
    expect(read?.metadata).to.deep.equal(event.metadata);
    expect(read?.recordedAt).to.be.instanceOf(Date);
    expect(result.nextRevision).to.equal(0);
    expect(result.position > START).to.equal(true);
  });

  it('numbers revisions from 0 and returns the new last revision', async () => {
    const stream = streamId('revisions');
    expect((await store.append(stream, [newEvent('A'), newEvent('B')], 'no_stream')).nextRevision).to.equal(1);
    expect((await store.append(stream, [newEvent('C')], 1)).nextRevision).to.equal(2);
    const events = await store.readStream(stream);
    expect(events.map((e) => [e.revision, e.type])).to.deep.equal([[0, 'A'], [1, 'B'], [2, 'C']]);
  });

  it('reads a stream from a revision on: the events from there, [] past its end; a bad revision is a RangeError', async () => {
    const stream = streamId('from');
    await store.append(stream, [newEvent('A'), newEvent('B'), newEvent('C')], 'no_stream');
    expect((await store.readStream(stream, 1)).map((e) => [e.revision, e.type])).to.deep.equal([[1, 'B'], [2, 'C']]);
    expect((await store.readStream(stream, 0)).map((e) => e.type)).to.deep.equal(['A', 'B', 'C']);
    expect(await store.readStream(stream, 3)).to.deep.equal([]);
    expect(await store.readStream(streamId('from-missing'), 2)).to.deep.equal([]);
    for (const bad of [-1, 1.5, Number.NaN]) expect(await rejection(store.readStream(stream, bad))).to.be.instanceOf(RangeError);
  });

  it('reads a stream that does not exist as []', async () => {
    expect(await store.readStream(streamId('missing'))).to.deep.equal([]);
  });

  it("tells a stream's head: the last event's revision and position, null for a stream that does not exist", async () => {
    const stream = streamId('head');
    expect(await store.streamHead(stream)).to.equal(null);
    await store.append(stream, [newEvent('A'), newEvent('B')], 'no_stream');
    await store.append(streamId('head-other'), [newEvent('X')], 'no_stream');
    const events = await store.readStream(stream);
    expect(await store.streamHead(stream)).to.deep.equal({ revision: 1, position: events[1]!.position });
  });

  it("rejects 'no_stream' when the stream exists, with a typed error", async () => {
    const stream = streamId('no-stream-conflict');
    await store.append(stream, [newEvent('A')], 'no_stream');
    const error = await rejection(store.append(stream, [newEvent('B')], 'no_stream'));
    expect(error).to.be.instanceOf(WrongExpectedRevision);
    expect(error).to.include({ streamId: stream, expected: 'no_stream', actual: 0 });
    expect(await store.readStream(stream)).to.have.length(1);
  });

  it('rejects a stale or future expected revision and writes nothing', async () => {
    const stream = streamId('stale');
    await store.append(stream, [newEvent('A'), newEvent('B')], 'no_stream');

    const stale = await rejection(store.append(stream, [newEvent('C'), newEvent('D')], 0));
    expect(stale).to.be.instanceOf(WrongExpectedRevision);
    expect(stale).to.include({ streamId: stream, expected: 0, actual: 1 });

    const future = await rejection(store.append(stream, [newEvent('C')], 5));
    expect(future).to.be.instanceOf(WrongExpectedRevision);

    const missing = await rejection(store.append(streamId('stale-missing'), [newEvent('C')], 0));
    expect(missing).to.be.instanceOf(WrongExpectedRevision);
    expect(missing).to.include({ actual: 'no_stream' });

    expect((await store.readStream(stream)).map((e) => e.type)).to.deep.equal(['A', 'B']);
  });

  it("appends with 'any' after whatever the stream holds", async () => {
    const stream = streamId('any');
    expect((await store.append(stream, [newEvent('A')], 'any')).nextRevision).to.equal(0);
    expect((await store.append(stream, [newEvent('B'), newEvent('C')], 'any')).nextRevision).to.equal(2);
    expect((await store.readStream(stream)).map((e) => e.revision)).to.deep.equal([0, 1, 2]);
  });

  it('appends several events atomically and contiguously', async () => {
    const stream = streamId('batch');
    const other = streamId('batch-other');
    const after = await mark(store);
    const batch = [newEvent('A'), newEvent('B'), newEvent('C')];
    const [result] = await Promise.all([store.append(stream, batch, 'no_stream'), store.append(other, [newEvent('X')], 'no_stream')]);

    const read = await store.readStream(stream);
    expect(read.map((e) => e.id)).to.deep.equal(batch.map((e) => e.id));
    expect(result.nextRevision).to.equal(2);
    // reaching the batch's last event means reaching the append's position
    expect(result.position > after && result.position <= (read[2]?.position ?? '')).to.equal(true);
    if (harness?.exactAppendPosition) expect(result.position).to.equal(read[2]?.position);

    const all = await readAllOf(store, after, [stream, other], 4);
    const ours = all.map((e) => e.streamId === stream);
    expect(ours.join()).to.be.oneOf(['true,true,true,false', 'false,true,true,true']);

    const conflict = await rejection(store.append(stream, [newEvent('D'), newEvent('E')], 'no_stream'));
    expect(conflict).to.be.instanceOf(WrongExpectedRevision);
    expect(await store.readStream(stream)).to.have.length(3);
  });

  it('keeps numeric order past 9: a long stream by revision, readAll by position, one event once', async () => {
    const long = streamId('long');
    const after = await mark(store);
    for (let i = 0; i < 12; i++) await store.append(long, [newEvent(`E${i}`)], i === 0 ? 'no_stream' : i - 1);
    await store.append(long, Array.from({ length: 12 }, (_, i) => newEvent(`F${i}`)), 11);
    const stream = await store.readStream(long);
    expect(stream.map((e) => e.revision)).to.deep.equal(Array.from({ length: 24 }, (_, i) => i));
    await readAllOf(store, after, [long], 24);
    const seen: RecordedEvent[] = [];
    let position: Position = after;
    for (let page = await store.readAll(position, 5); page.length > 0; page = await store.readAll(position, 5)) {
      seen.push(...page);
      position = page.at(-1)?.position ?? position;
    }
    const ours = seen.filter((e) => e.streamId === long);
    expect(ours.map((e) => e.revision)).to.deep.equal(Array.from({ length: 24 }, (_, i) => i));
    const positions = seen.map((e) => e.position);
    expect(new Set(positions).size).to.equal(positions.length);
    expect([...positions].sort()).to.deep.equal(positions);
  });

  it('reads all events after a position in append order, page by page', async () => {
    const a = streamId('all-a');
    const b = streamId('all-b');
    const after = await mark(store);
    const appended = [];
    for (const [stream, event] of [[a, newEvent('A0')], [b, newEvent('B0')], [a, newEvent('A1')], [b, newEvent('B1')], [a, newEvent('A2')]] as const) {
      await store.append(stream, [event], 'any');
      appended.push(event.id);
    }
    await readAllOf(store, after, [a, b], 5);

    const pages: RecordedEvent[][] = [];
    let position: Position = after;
    for (;;) {
      const page = await store.readAll(position, 2);
      expect(page.length).to.be.at.most(2);
      if (page.length === 0) break;
      pages.push(page);
      position = page.at(-1)?.position ?? position;
    }
    const read = pages.flat().filter((e) => e.streamId === a || e.streamId === b);
    expect(read.map((e) => e.id)).to.deep.equal(appended);
    const positions = pages.flat().map((e) => e.position);
    expect([...positions].sort()).to.deep.equal(positions);
    expect(new Set(positions).size).to.equal(positions.length);
    expect(positions.every((p) => p > after)).to.equal(true);
  });

  it('subscribes: catches up, follows live appends, and stops on unsubscribe', async () => {
    const stream = streamId('subscribe');
    const after = await mark(store);
    await store.append(stream, [newEvent('A'), newEvent('B'), newEvent('C')], 'no_stream');

    const received: RecordedEvent[] = [];
    let failure: unknown;
    const subscription: Subscription = store.subscribe(after).subscribe({
      next: (e) => {
        if (e.streamId === stream) received.push(e);
      },
      error: (error: unknown) => (failure = error),
    });
    try {
      await eventually(async () => received.length, (n) => n >= 3);
      await store.append(stream, [newEvent('D')], 2);
      await store.append(stream, [newEvent('E')], 3);
      await eventually(async () => received.length, (n) => n >= 5);
    } finally {
      subscription.unsubscribe();
    }
    await store.append(stream, [newEvent('F')], 4);
    await sleep(400);
    expect(failure).to.equal(undefined);
    expect(received.map((e) => e.type)).to.deep.equal(['A', 'B', 'C', 'D', 'E']);
    expect(received.map((e) => e.revision)).to.deep.equal([0, 1, 2, 3, 4]);
  });

  it('lets exactly one of several concurrent appends at the same revision win', async () => {
    const stream = streamId('race');
    await store.append(stream, [newEvent('Created')], 'no_stream');
    const contenders = Array.from({ length: 8 }, (_, i) => newEvent('Updated', { contender: i }));
    const outcomes = await Promise.allSettled(contenders.map((event) => store.append(stream, [event], 0)));

    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(won).to.have.length(1);
    expect(lost).to.have.length(7);
    for (const error of lost) expect(error).to.be.instanceOf(WrongExpectedRevision);

    const events = await store.readStream(stream);
    expect(events).to.have.length(2);
    const winner = contenders[outcomes.findIndex((o) => o.status === 'fulfilled')];
    expect(events[1]?.id).to.equal(winner?.id);
  });

  it('appends made at once to several streams each stand alone: only the one at a stale revision is refused', async () => {
    const [a, b, c] = [streamId('at-once-a'), streamId('at-once-b'), streamId('at-once-c')];
    await store.append(a, [newEvent('Created')], 'no_stream');
    await store.append(b, [newEvent('Created'), newEvent('Updated')], 'no_stream');
    const outcomes = await Promise.allSettled([
      store.append(a, [newEvent('Updated')], 0),
      store.append(b, [newEvent('Updated')], 0), // b is at 1
      store.append(c, [newEvent('Created'), newEvent('Updated')], 'no_stream'),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).to.be.instanceOf(WrongExpectedRevision).with.property('streamId', b);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.nextRevision : null))).to.deep.equal([1, null, 1]);
    expect((await store.readStream(a)).map((e) => e.revision)).to.deep.equal([0, 1]);
    expect(await store.readStream(b)).to.have.length(2);
    expect((await store.readStream(c)).map((e) => e.type)).to.deep.equal(['Created', 'Updated']);
  });

  it('reads all events with onlyDataOf: every event in order, data at least for the named types', async () => {
    const a = streamId('data-of');
    const after = await mark(store);
    const events = [newEvent('Wanted', { n: 1 }), newEvent('Other', { n: 2 }), newEvent('Wanted', { n: 3 })];
    await store.append(a, events, 'no_stream');
    await readAllOf(store, after, [a], 3);
    const read = (await store.readAll(after, 100, ['Wanted'])).filter((e) => e.streamId === a);
    expect(read.map((e) => e.id)).to.deep.equal(events.map((e) => e.id));
    expect(read.map((e) => e.revision)).to.deep.equal([0, 1, 2]);
    expect(read.filter((e) => e.type === 'Wanted').map((e) => e.data)).to.deep.equal([{ n: 1 }, { n: 3 }]);
    expect(read[0]?.metadata).to.deep.equal(events[0]?.metadata);
  });

  it('reads all events for callers asking at once with different onlyDataOf: each has the data of its own types', async () => {
    const a = streamId('data-of-at-once');
    const after = await mark(store);
    const events = [newEvent('Wanted', { n: 1 }), newEvent('Other', { n: 2 }), newEvent('Third', { n: 3 })];
    await store.append(a, events, 'no_stream');
    await readAllOf(store, after, [a], 3);
    const reads = await Promise.all([store.readAll(after, 100, ['Wanted']), store.readAll(after, 100, ['Other']), store.readAll(after, 100)]);
    const ours = reads.map((read) => read.filter((e) => e.streamId === a));
    for (const read of ours) expect(read.map((e) => e.id)).to.deep.equal(events.map((e) => e.id));
    expect(ours[0]?.[0]?.data).to.deep.equal({ n: 1 });
    expect(ours[1]?.[1]?.data).to.deep.equal({ n: 2 });
    expect(ours[2]?.map((e) => e.data)).to.deep.equal([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  describe('upcasting on every read', () => {
    const current = (n: number) => ({ n, total: '12.50' });
    let stream: string;
    let after: Position;
    let written: NewEvent[];

    before(async () => {
      stream = streamId('upcast');
      after = await mark(store);
      written = [renamed(1, 0), renamed(2, 1), renamed(3, 2), newEvent('Untouched', { cents: 1 })];
      await store.append(stream, written, 'no_stream');
      await readAllOf(store, after, [stream], written.length);
    });

    const expectCurrent = (events: RecordedEvent[], ns: number[]) => {
      const ours = events.filter((e) => e.streamId === stream && e.type === RENAMED);
      expect(ours.map((e) => e.data)).to.deep.equal(ns.map(current));
      expect(ours.map((e) => e.metadata.version)).to.deep.equal(ns.map(() => 3));
      for (const e of ours) expect(e.metadata).to.deep.include({ correlationId: written[e.revision]?.metadata.correlationId });
    };

    it('a stream read gives every old event at its current version, and other types as stored', async () => {
      const events = await store.readStream(stream);
      expectCurrent(events, [0, 1, 2]);
      expect(events[3]?.data).to.deep.equal({ cents: 1 });
      expect(events[3]?.metadata).to.deep.equal(written[3]?.metadata);
    });

    it('a stream read from a revision upcasts too', async () => {
      expectCurrent(await store.readStream(stream, 1), [1, 2]);
    });

    it('a read of all events upcasts, with and without onlyDataOf, and a read of some types too', async () => {
      expectCurrent(await store.readAll(after, 100), [0, 1, 2]);
      expectCurrent(await store.readAll(after, 100, [RENAMED]), [0, 1, 2]);
      if (store.readAllOfTypes) expectCurrent(await store.readAllOfTypes(after, 100, [RENAMED]), [0, 1, 2]);
    });

    it('a read of some types with the metadata of only some still upcasts the others (their version is read anyway), and gives the metadata asked for', async () => {
      if (!store.readAllOfTypes) return;
      const events = (await store.readAllOfTypes(after, 100, [RENAMED, 'Untouched'], ['Untouched'])).filter((e) => e.streamId === stream);
      expect(events.filter((e) => e.type === RENAMED).map((e) => e.data)).to.deep.equal([0, 1, 2].map(current));
      expect(events.find((e) => e.type === 'Untouched')?.metadata).to.deep.equal(written[3]?.metadata);
    });

    it('a subscription upcasts', async () => {
      const received: RecordedEvent[] = [];
      const subscription = store.subscribe(after).subscribe((e) => {
        if (e.streamId === stream) received.push(e);
      });
      try {
        await eventually(async () => received.length, (n) => n >= written.length);
      } finally {
        subscription.unsubscribe();
      }
      expectCurrent(received, [0, 1, 2]);
    });

    it('writes a new event of a changed type with its current version in its metadata, and reads it back as written', async () => {
      const fresh = streamId('upcast-new');
      const event = newEvent(RENAMED, current(7));
      await store.append(fresh, [event], 'no_stream');
      await store.appendToStreams([{ streamId: fresh, events: [newEvent(RENAMED, current(8))], expected: 0 }]);
      await store.appendToNewStreams([{ streamId: `${fresh}-b`, events: [newEvent(RENAMED, current(9))] }]);
      const read = [...(await store.readStream(fresh)), ...(await store.readStream(`${fresh}-b`))];
      expect(read.map((e) => e.data)).to.deep.equal([current(7), current(8), current(9)]);
      expect(read.map((e) => e.metadata.version)).to.deep.equal([3, 3, 3]);
      expect(read[0]?.metadata).to.deep.equal({ ...event.metadata, version: 3 });
    });
  });

  it('emits on appended$ and appendedTypes$ every append made through it', async () => {
    const types: (readonly string[])[] = [];
    const typed = store.appendedTypes$.subscribe((a) => types.push(a.types));
    const emitted: Position[] = [];
    const subscription = store.appended$.subscribe((p) => emitted.push(p));
    try {
      const first = await store.append(streamId('appended'), [newEvent('A')], 'no_stream');
      const second = await store.append(streamId('appended'), [newEvent('B'), newEvent('C')], 'no_stream');
      await rejection(store.append(streamId('appended-missing'), [newEvent('D')], 3));
      expect(emitted).to.deep.equal([first.position, second.position]);
      expect(types).to.deep.equal([['A'], ['B', 'C']]);
      expect(second.position > first.position).to.equal(true);
    } finally {
      subscription.unsubscribe();
      typed.unsubscribe();
    }
  });

  describe('appendToNewStreams', () => {
    const start = (streamId: string, events: NewEvent[]): NewStream => ({ streamId, events });

    it('starts several streams: revisions from 0 in each, positions and readAll in the order given', async () => {
      // given in anti-alphabetical order, so the store cannot pass by sorting stream ids
      const first = streamId('new-z');
      const second = streamId('new-a');
      const firstEvents = [newEvent('Z0'), newEvent('Z1'), newEvent('Z2')];
      const secondEvents = [newEvent('A0'), newEvent('A1')];
      const after = await mark(store);
      const [one, two] = await store.appendToNewStreams([start(first, firstEvents), start(second, secondEvents)]);

      const readFirst = await store.readStream(first);
      const readSecond = await store.readStream(second);
      expect(readFirst.map((e) => [e.id, e.revision])).to.deep.equal(firstEvents.map((e, i) => [e.id, i]));
      expect(readSecond.map((e) => [e.id, e.revision])).to.deep.equal(secondEvents.map((e, i) => [e.id, i]));
      expect([one?.nextRevision, two?.nextRevision]).to.deep.equal([2, 1]);
      // each result is reached by reaching its stream's last event, and they follow the order given
      const [lastOfFirst, lastOfSecond] = [readFirst[2]?.position ?? '', readSecond[1]?.position ?? ''];
      expect((one?.position ?? '') > after && (one?.position ?? '') <= lastOfFirst).to.equal(true);
      expect((two?.position ?? '') > lastOfFirst && (two?.position ?? '') <= lastOfSecond).to.equal(true);
      if (harness?.exactAppendPosition) expect([one?.position, two?.position]).to.deep.equal([lastOfFirst, lastOfSecond]);

      const all = await readAllOf(store, after, [first, second], 5);
      expect(all.map((e) => e.id)).to.deep.equal([...firstEvents, ...secondEvents].map((e) => e.id));
    });

    it('refuses when one stream exists, naming it; where atomic, writes none of the others', async () => {
      const fresh = streamId('new-fresh');
      const existing = streamId('new-existing');
      const later = streamId('new-later');
      await store.append(existing, [newEvent('Old0'), newEvent('Old1')], 'no_stream');

      const error = await rejection(
        store.appendToNewStreams([start(fresh, [newEvent('F')]), start(existing, [newEvent('E')]), start(later, [newEvent('L')])]),
      );
      expect(error).to.be.instanceOf(WrongExpectedRevision);
      expect(error).to.include({ streamId: existing, expected: 'no_stream', actual: 1 });
      expect((await store.readStream(existing)).map((e) => e.type)).to.deep.equal(['Old0', 'Old1']);
      expect(await store.readStream(later)).to.deep.equal([]);
      // EventStoreDB has written `fresh` before it reached `existing`
      if (harness?.atomicNewStreams) expect(await store.readStream(fresh)).to.deep.equal([]);
    });

    it('lets exactly one of two concurrent calls sharing a stream win; where atomic, the loser writes nothing', async () => {
      for (let round = 0; round < 5; round++) {
        const shared = streamId('new-shared');
        const own = [streamId('new-own'), streamId('new-own')];
        const sharedEvents = own.map((_, i) => [newEvent('Shared', { call: i }), newEvent('Shared', { call: i })]);
        // the shared stream first in one call and last in the other
        const outcomes = await Promise.allSettled([
          store.appendToNewStreams([start(own[0] ?? '', [newEvent('Own'), newEvent('Own')]), start(shared, sharedEvents[0] ?? [])]),
          store.appendToNewStreams([start(shared, sharedEvents[1] ?? []), start(own[1] ?? '', [newEvent('Own'), newEvent('Own')])]),
        ]);

        expect(outcomes.map((o) => o.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
        const winner = outcomes.findIndex((o) => o.status === 'fulfilled');
        const loser = 1 - winner;
        const [lost] = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
        expect(lost).to.be.instanceOf(WrongExpectedRevision);
        expect(lost).to.include({ streamId: shared, expected: 'no_stream' });
        expect((await store.readStream(shared)).map((e) => e.id)).to.deep.equal(sharedEvents[winner]?.map((e) => e.id));
        expect(await store.readStream(own[winner] ?? '')).to.have.length(2);
        if (harness?.atomicNewStreams) expect(await store.readStream(own[loser] ?? '')).to.deep.equal([]);
      }
    });

    it('where atomic, lets exactly one of two calls sharing two streams in opposite order win', async function () {
      // EventStoreDB can fail both: each writes its first stream, then finds the other's
      if (!harness?.atomicNewStreams) this.skip();
      for (let round = 0; round < 5; round++) {
        const [s, t] = [streamId('new-s'), streamId('new-t')];
        const batch = () => Array.from({ length: 20 }, () => newEvent('Crossed'));
        const outcomes = await Promise.allSettled([
          store.appendToNewStreams([start(s, batch()), start(t, batch())]),
          store.appendToNewStreams([start(t, batch()), start(s, batch())]),
        ]);
        expect(outcomes.map((o) => o.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
        for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).to.be.instanceOf(WrongExpectedRevision);
        expect(await store.readStream(s)).to.have.length(20);
        expect(await store.readStream(t)).to.have.length(20);
      }
    });

    it('refuses an empty list, a stream without events or one stream twice, writing nothing', async () => {
      const a = streamId('new-invalid');
      const invalid: NewStream[][] = [
        [],
        [start(a, [newEvent('A')]), start(streamId('new-empty'), [])],
        [start(a, [newEvent('A')]), start(a, [newEvent('B')])],
      ];
      for (const streams of invalid) expect(await rejection(store.appendToNewStreams(streams))).to.be.instanceOf(RangeError);
      expect(await store.readStream(a)).to.deep.equal([]);
    });

    it('emits on appended$ and appendedTypes$ after success only; once, with every type, where atomic', async () => {
      const types: (readonly string[])[] = [];
      const emitted: Position[] = [];
      const typed = store.appendedTypes$.subscribe((a) => types.push(a.types));
      const subscription = store.appended$.subscribe((p) => emitted.push(p));
      try {
        const existing = streamId('new-emit-existing');
        await store.append(existing, [newEvent('Old')], 'no_stream');
        emitted.length = types.length = 0;
        await rejection(store.appendToNewStreams([start(streamId('new-emit'), [newEvent('X')]), start(existing, [newEvent('Y')])]));
        if (harness?.atomicNewStreams) expect(emitted).to.deep.equal([]);

        emitted.length = types.length = 0;
        const results = await store.appendToNewStreams([start(streamId('new-emit'), [newEvent('A')]), start(streamId('new-emit'), [newEvent('B'), newEvent('C')])]);
        expect(emitted.at(-1)).to.equal(results.at(-1)?.position);
        expect(types.flat()).to.deep.equal(['A', 'B', 'C']);
        if (harness?.atomicNewStreams) expect(types).to.deep.equal([['A', 'B', 'C']]);
      } finally {
        subscription.unsubscribe();
        typed.unsubscribe();
      }
    });
  });

  describe('appendToStreams', () => {
    const write = (streamId: string, events: NewEvent[], expected: StreamWrite['expected']): StreamWrite => ({ streamId, events, expected });

    it('appends to an existing stream at its revision and starts a new one in one call; readAll has them in the order given', async () => {
      const owner = streamId('many-owner');
      // the new stream's id sorts before the owner's, so the store cannot pass by sorting ids
      const started = `a${streamId('many-new')}`;
      await store.append(owner, [newEvent('Created'), newEvent('Issued')], 'no_stream');
      const after = await mark(store);
      const ownerEvents = [newEvent('CreditNoteTaken')];
      const startedEvents = [newEvent('CreditNoteIssued'), newEvent('CreditNoteSent')];

      const result = await store.appendToStreams([write(owner, ownerEvents, 1), write(started, startedEvents, 'no_stream')]);

      expect(result.streams).to.deep.equal([{ streamId: owner, nextRevision: 2 }, { streamId: started, nextRevision: 1 }]);
      const readOwner = await store.readStream(owner);
      const readStarted = await store.readStream(started);
      expect(readOwner.map((e) => [e.type, e.revision])).to.deep.equal([['Created', 0], ['Issued', 1], ['CreditNoteTaken', 2]]);
      expect(readStarted.map((e) => [e.id, e.revision])).to.deep.equal(startedEvents.map((e, i) => [e.id, i]));

      const all = await readAllOf(store, after, [owner, started], 3);
      expect(all.map((e) => e.id)).to.deep.equal([...ownerEvents, ...startedEvents].map((e) => e.id));
      // one position for the call: reaching it means having seen every stream's events
      const last = all.at(-1)?.position ?? '';
      expect(result.position > after && result.position <= last).to.equal(true);
      if (harness?.exactAppendPosition) expect(result.position).to.equal(last);
    });

    it('refuses a stale revision on one stream, naming it; where atomic, writes nothing on the others', async () => {
      const owner = streamId('many-stale');
      const started = streamId('many-stale-new');
      await store.append(owner, [newEvent('A'), newEvent('B')], 'no_stream');
      const before = await mark(store);

      // the conflicting stream last, so EventStoreDB (one by one) has written the first one
      const error = await rejection(store.appendToStreams([write(started, [newEvent('N')], 'no_stream'), write(owner, [newEvent('C')], 0)]));

      expect(error).to.be.instanceOf(WrongExpectedRevision);
      expect(error).to.include({ streamId: owner, expected: 0, actual: 1 });
      expect((await store.readStream(owner)).map((e) => e.type)).to.deep.equal(['A', 'B']);
      if (harness?.atomicNewStreams) {
        expect(await store.readStream(started)).to.deep.equal([]);
        const after = await mark(store);
        const between = (await store.readAll(before, 10_000)).filter((e) => e.position < after);
        expect(between).to.deep.equal([]);
      }
    });

    it('refuses a future revision and a missing stream at a revision, naming it', async () => {
      const owner = streamId('many-future');
      await store.append(owner, [newEvent('A')], 'no_stream');
      const future = await rejection(store.appendToStreams([write(owner, [newEvent('B')], 3)]));
      expect(future).to.be.instanceOf(WrongExpectedRevision);
      expect(future).to.include({ streamId: owner, expected: 3, actual: 0 });
      const missing = streamId('many-missing');
      const absent = await rejection(store.appendToStreams([write(owner, [newEvent('B')], 0), write(missing, [newEvent('X')], 0)]));
      expect(absent).to.be.instanceOf(WrongExpectedRevision);
      expect(absent).to.include({ streamId: missing, expected: 0, actual: 'no_stream' });
      if (harness?.atomicNewStreams) expect(await store.readStream(owner)).to.have.length(1);
      expect(await store.readStream(missing)).to.deep.equal([]);
    });

    it("refuses a 'new' stream that exists, naming it; the owner written before it in the call stays untouched where atomic", async () => {
      const owner = streamId('many-exists-owner');
      const taken = streamId('many-exists');
      await store.append(owner, [newEvent('A')], 'no_stream');
      await store.append(taken, [newEvent('T0'), newEvent('T1')], 'no_stream');

      const error = await rejection(store.appendToStreams([write(owner, [newEvent('B')], 0), write(taken, [newEvent('T')], 'no_stream')]));

      expect(error).to.be.instanceOf(WrongExpectedRevision);
      expect(error).to.include({ streamId: taken, expected: 'no_stream', actual: 1 });
      expect((await store.readStream(taken)).map((e) => e.type)).to.deep.equal(['T0', 'T1']);
      if (harness?.atomicNewStreams) expect((await store.readStream(owner)).map((e) => e.type)).to.deep.equal(['A']);
    });

    it('lets exactly one of several concurrent calls at the same revision of one stream win; where atomic, losers write nothing', async () => {
      for (let round = 0; round < 3; round++) {
        const owner = streamId('many-race');
        await store.append(owner, [newEvent('Created')], 'no_stream');
        const started = Array.from({ length: 6 }, () => streamId('many-race-new'));
        const outcomes = await Promise.allSettled(
          started.map((id, i) => store.appendToStreams([write(owner, [newEvent('Taken', { contender: i })], 0), write(id, [newEvent('Started')], 'no_stream')])),
        );

        const winners = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
        expect(winners).to.have.length(1);
        for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).to.be.instanceOf(WrongExpectedRevision).and.include({ streamId: owner, expected: 0, actual: 1 });
        const events = await store.readStream(owner);
        expect(events.map((e) => e.data)).to.deep.equal([{}, { contender: winners[0] }]);
        for (const [i, id] of started.entries()) {
          // EventStoreDB writes the owner first: a loser stops there, before its new stream
          expect(await store.readStream(id)).to.have.length(i === winners[0] ? 1 : 0);
        }
      }
    });

    it('where atomic, lets exactly one of two calls writing two streams in opposite order win', async function () {
      // EventStoreDB can fail both: each writes its first stream, then finds the other's
      if (!harness?.atomicNewStreams) this.skip();
      for (let round = 0; round < 5; round++) {
        const [s, t] = [streamId('many-s'), streamId('many-t')];
        await store.append(s, [newEvent('S0')], 'no_stream');
        const batch = () => Array.from({ length: 20 }, () => newEvent('Crossed'));
        const outcomes = await Promise.allSettled([
          store.appendToStreams([write(s, batch(), 0), write(t, batch(), 'no_stream')]),
          store.appendToStreams([write(t, batch(), 'no_stream'), write(s, batch(), 0)]),
        ]);
        expect(outcomes.map((o) => o.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
        for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).to.be.instanceOf(WrongExpectedRevision);
        expect(await store.readStream(s)).to.have.length(21);
        expect(await store.readStream(t)).to.have.length(20);
      }
    });

    it('refuses no writes, a stream named twice, a stream without events or a bad revision, writing nothing', async () => {
      const a = streamId('many-invalid');
      const b = streamId('many-invalid-other');
      await store.append(b, [newEvent('B0')], 'no_stream');
      const invalid: StreamWrite[][] = [
        [],
        [write(a, [newEvent('A')], 'no_stream'), write(a, [newEvent('A')], 'no_stream')],
        [write(b, [newEvent('B')], 0), write(b, [newEvent('B')], 1)],
        [write(a, [newEvent('A')], 'no_stream'), write(b, [], 0)],
        [write(a, [newEvent('A')], 'no_stream'), write(b, [newEvent('B')], -1)],
        [write(a, [newEvent('A')], 'no_stream'), write(b, [newEvent('B')], 0.5)],
      ];
      for (const writes of invalid) expect(await rejection(store.appendToStreams(writes))).to.be.instanceOf(RangeError);
      expect(await store.readStream(a)).to.deep.equal([]);
      expect(await store.readStream(b)).to.have.length(1);
    });

    it('emits on appended$ and appendedTypes$ after success only; once, with every type, where atomic', async () => {
      const types: (readonly string[])[] = [];
      const emitted: Position[] = [];
      const typed = store.appendedTypes$.subscribe((a) => types.push(a.types));
      const subscription = store.appended$.subscribe((p) => emitted.push(p));
      try {
        const owner = streamId('many-emit');
        await store.append(owner, [newEvent('Old')], 'no_stream');
        emitted.length = types.length = 0;
        await rejection(store.appendToStreams([write(owner, [newEvent('X')], 5), write(streamId('many-emit-new'), [newEvent('Y')], 'no_stream')]));
        expect(emitted).to.deep.equal([]);

        const result = await store.appendToStreams([write(owner, [newEvent('A')], 0), write(streamId('many-emit-new'), [newEvent('B'), newEvent('C')], 'no_stream')]);
        expect(emitted.at(-1)).to.equal(result.position);
        expect(types.flat()).to.deep.equal(['A', 'B', 'C']);
        if (harness?.atomicNewStreams) expect(types).to.deep.equal([['A', 'B', 'C']]);
      } finally {
        subscription.unsubscribe();
        typed.unsubscribe();
      }
    });
  });
}

describe('event store contract', () => {
  const kind = process.env.DATABASE_URL ? 'Postgres' : 'PGlite';
  describe(`postgres adapter on ${kind}`, () => {
    eventStoreContract(async () => {
      const db = await freshDatabase();
      const pool = new pg.Pool({ connectionString: db.connectionString, max: 10 });
      // small pages and a short poll so the suite exercises paged catch-up and polling
      const store = await createPostgresEventStore(pool, { pageSize: 2, pollIntervalMs: 50, contracts: SUITE_CONTRACTS });
      return {
        store,
        exactAppendPosition: true,
        atomicNewStreams: true,
        async teardown() {
          await store.close();
          await endPool(pool);
          await db.drop();
        },
      };
    });
  });

  describe('esdb adapter on EventStoreDB', () => {
    const url = process.env.EVENTSTORE_URL;
    if (!url) {
      it('EventStoreDB: not run — no EventStoreDB server on this machine; set EVENTSTORE_URL to run this suite');
      return;
    }
    eventStoreContract(async () => {
      const store = createEsdbEventStore(url, { contracts: SUITE_CONTRACTS });
      return { store, exactAppendPosition: false, atomicNewStreams: false, teardown: () => store.close() };
    });
  });
});
