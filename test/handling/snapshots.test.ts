import { expect } from 'chai';
import type { Decider, DomainEvent } from '../../commands/shared/decider.ts';
import type { EventStore, NewEvent, StreamSnapshots } from '../../src/platform/eventstore/index.ts';
import { handleCommand } from '../../src/platform/handling/command-handler.ts';
import { readAndFold } from '../../src/platform/handling/read-and-fold.ts';
import { randomIds } from '../../src/platform/ports/ids.ts';
import { freshEventStore } from '../support/database.ts';

type Added = DomainEvent<'Added', { n: number }>;
/** A running total and how many events made it: a snapshot from the wrong place shows in either. */
const tally: Decider<{ type: 'Add'; n: number }, Added, { total: number; events: number }> = {
  initialState: { total: 0, events: 0 },
  decide: (command) => [{ type: 'Added', data: { n: command.n } }],
  evolve: (state, event) => ({ total: state.total + event.data.n, events: state.events + 1 }),
  snapshot: { version: 1, every: 10 },
};
const added = (n: number): NewEvent => ({ id: crypto.randomUUID(), type: 'Added', data: { n }, metadata: {} });
const options = { metadata: {} };

describe('stream snapshots: a long stream is folded from its latest snapshot', function () {
  let close: () => Promise<void> = async () => undefined;
  let store: EventStore;
  let snapshots: StreamSnapshots;
  /** the revisions reads started from, and the snapshots saved, through `counting` */
  let readsFrom: number[] = [];
  let saved: number[] = [];
  let counting: EventStore;
  let stream = '';

  before(async () => {
    ({ store, close } = await freshEventStore());
    snapshots = store.snapshots!;
    const countingSnapshots: StreamSnapshots = {
      load: (streamId, version) => snapshots.load(streamId, version),
      save: (streamId, version, snapshot) => (saved.push(snapshot.revision), snapshots.save(streamId, version, snapshot)),
    };
    counting = Object.assign(Object.create(store) as EventStore, {
      readStream: (streamId: string, from = 0) => (readsFrom.push(from), store.readStream(streamId, from)),
      snapshots: countingSnapshots,
    });
  });
  beforeEach(() => {
    stream = `tally-${crypto.randomUUID()}`;
    readsFrom = [];
    saved = [];
  });
  after(() => close());

  const add = (n: number) => handleCommand({ store: counting, ids: randomIds }, stream, tally, { type: 'Add', n }, options);

  it('keeps the state each time a command takes the stream past a multiple of `every`, and reads on from there', async () => {
    for (let n = 1; n <= 25; n++) await add(n);
    expect(saved).to.deep.equal([9, 19]); // revisions 9 and 19: the 10th and 20th events
    expect(await snapshots.load(stream, 1)).to.deep.equal({ revision: 19, state: { total: 210, events: 20 } });
    readsFrom = [];
    const read = await readAndFold(counting, stream, tally);
    expect(read).to.deep.include({ state: { total: 325, events: 25 }, revision: 24 });
    expect(readsFrom).to.deep.equal([20]);
    expect(read.events.map((e) => e.revision)).to.deep.equal([20, 21, 22, 23, 24]);
  });

  it('a long stream written without snapshots is read whole once, and the read keeps what it folded', async () => {
    await store.append(stream, Array.from({ length: 15 }, (_, i) => added(i + 1)), 'no_stream');
    expect((await readAndFold(counting, stream, tally)).state).to.deep.equal({ total: 120, events: 15 });
    expect((await readAndFold(counting, stream, tally)).state).to.deep.equal({ total: 120, events: 15 });
    expect(readsFrom).to.deep.equal([0, 15]);
    expect(saved).to.deep.equal([14]);
  });

  it('uses no snapshot of another version (evolve changed), and never replaces a later snapshot with an earlier one', async () => {
    await store.append(stream, Array.from({ length: 12 }, () => added(1)), 'no_stream');
    await snapshots.save(stream, 1, { revision: 11, state: { total: 999, events: 12 } }); // what an older evolve made
    const changed = { ...tally, snapshot: { version: 2, every: 10 } };
    expect((await readAndFold(counting, stream, changed)).state).to.deep.equal({ total: 12, events: 12 });
    await snapshots.save(stream, 2, { revision: 5, state: { total: 6, events: 6 } });
    expect(await snapshots.load(stream, 2)).to.deep.equal({ revision: 11, state: { total: 12, events: 12 } });
  });

  it('a snapshot that cannot be kept fails nothing: the command is written, the next read folds the stream', async () => {
    const failing = Object.assign(Object.create(store) as EventStore, {
      snapshots: { load: () => Promise.resolve(null), save: () => Promise.reject(new Error('disk full')) } satisfies StreamSnapshots,
    });
    for (let n = 1; n <= 11; n++) await handleCommand({ store: failing, ids: randomIds }, stream, tally, { type: 'Add', n }, options);
    expect((await readAndFold(store, stream, tally)).state).to.deep.equal({ total: 66, events: 11 });
  });

  it('a decider without `snapshot` is always folded from the first event and never kept', async () => {
    const plain = { ...tally, snapshot: undefined };
    for (let n = 1; n <= 12; n++) await handleCommand({ store: counting, ids: randomIds }, stream, plain, { type: 'Add', n }, options);
    readsFrom = [];
    expect((await readAndFold(counting, stream, plain)).state).to.deep.equal({ total: 78, events: 12 });
    expect(readsFrom).to.deep.equal([0]);
    expect(saved).to.deep.equal([]);
  });
});
