import { expect } from 'chai';
import { NotFound } from '../../commands/shared/access.ts';
import type { Decider, DomainEvent } from '../../commands/shared/decider.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import type { DomainErrorCode } from '../../commands/shared/error-codes.ts';
import { StandingRefusal } from '../../commands/shared/preconditions.ts';
import { uniqueClaimDecider } from '../../commands/shared/unique-claim.ts';
import { claimStream } from '../../events/claims.ts';
import type { EventStore, NewEvent } from '../../src/platform/eventstore/index.ts';
import { WrongExpectedRevision } from '../../src/platform/eventstore/port.ts';
import { upcastOnRead } from '../../src/platform/eventstore/upcasting.ts';
import { handleCommand } from '../../src/platform/handling/command-handler.ts';
import { readAndFold } from '../../src/platform/handling/read-and-fold.ts';
import { randomIds } from '../../src/platform/ports/ids.ts';
import { freshEventStore } from '../support/database.ts';

type Added = DomainEvent<'Added', { n: number }>;
type Add = { type: 'Add'; n: number };
let decided = 0;
const counter: Decider<Add, Added, { total: number }> = {
  initialState: { total: 0 },
  decide: (command) => (decided++, [{ type: 'Added', data: { n: command.n } }]),
  evolve: (state, event) => ({ total: state.total + event.data.n }),
};
const added = (n: number): NewEvent => ({ id: crypto.randomUUID(), type: 'Added', data: { n }, metadata: {} });
const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe('handleCommand: the one command path', function () {
  let close: () => Promise<void> = async () => undefined;
  let store: EventStore;
  let stream = '';
  let n = 0;

  /** A store where another writer appends to the stream just before each of our next `races` appends. */
  const racing = (races: number): EventStore =>
    Object.assign(Object.create(store) as EventStore, {
      append: async (...args: Parameters<EventStore['append']>) => {
        if (races-- > 0) await store.append(args[0], [added(100)], 'any');
        return store.append(...args);
      },
    });

  before(async () => {
    ({ store, close } = await freshEventStore());
  });
  beforeEach(async () => {
    stream = `counter-${++n}-${crypto.randomUUID()}`;
    decided = 0;
    await store.append(stream, [added(1)], 'no_stream');
  });
  after(() => close());

  it('decides again on the newer state when another write lands between the read and the append', async () => {
    const handled = await handleCommand({ store: racing(1), ids: randomIds }, stream, counter, { type: 'Add', n: 5 }, { metadata: {}, expected: { retry: { onVersionConflict: 3 } } });
    expect(decided).to.equal(2);
    expect(handled.state.total).to.equal(106);
    expect(handled.version).to.equal(2);
    expect((await store.readStream(stream)).map((e) => e.data.n)).to.deep.equal([1, 100, 5]);
  });

  it('a retry reads only the events after the revision the lost attempt read, not the stream again', async () => {
    const readsFrom: number[] = [];
    const racingCounted = Object.assign(Object.create(racing(2)) as EventStore, {
      readStream: (id: string, from = 0) => (readsFrom.push(from), store.readStream(id, from)),
    });
    const handled = await handleCommand({ store: racingCounted, ids: randomIds }, stream, counter, { type: 'Add', n: 5 }, { metadata: {}, expected: { retry: { onVersionConflict: 3 } } });
    expect(handled.state.total).to.equal(206);
    expect(handled.version).to.equal(3);
    expect(readsFrom).to.deep.equal([0, 1, 2]); // the whole stream once, then each other writer's event
    expect((await store.readStream(stream)).map((e) => e.data.n)).to.deep.equal([1, 100, 100, 5]);
  });

  it('without retryOnConflict a lost race is the conflict, and nothing of the command is written', async () => {
    const error = await refusal(handleCommand({ store: racing(1), ids: randomIds }, stream, counter, { type: 'Add', n: 5 }, { metadata: {} }));
    expect(error).to.be.instanceOf(WrongExpectedRevision);
    expect((await store.readStream(stream)).map((e) => e.data.n)).to.deep.equal([1, 100]);
  });

  it('with If-Match a lost race stays a conflict (412), never decided again', async () => {
    const error = await refusal(handleCommand({ store: racing(1), ids: randomIds }, stream, counter, { type: 'Add', n: 5 }, {
      metadata: {}, expected: { ifMatch: 0 },
    }));
    expect(error).to.be.instanceOf(WrongExpectedRevision);
    expect(decided).to.equal(1);
    expect((await store.readStream(stream)).map((e) => e.data.n)).to.deep.equal([1, 100]);
  });

  it('with a stale If-Match a refusal as not found comes first (404), and any other standing refusal; any other refusal is the 412', async () => {
    const guarded: Decider<Add, Added, { total: number }> = {
      ...counter,
      decide: (command, state) => {
        if (command.n < 0) throw new NotFound('counter_not_found' as DomainErrorCode, 'not yours');
        if (command.n === 0) throw new DomainError('invalid_status', 'nothing to add');
        if (command.n > 1000) throw new StandingRefusal('invalid_status', 'the counter is closed');
        return counter.decide(command, state);
      },
    };
    const stale = { metadata: {}, expected: { ifMatch: 7 } };
    expect(await refusal(handleCommand({ store, ids: randomIds }, stream, guarded, { type: 'Add', n: -1 }, stale))).to.be.instanceOf(NotFound);
    expect(await refusal(handleCommand({ store, ids: randomIds }, stream, guarded, { type: 'Add', n: 1001 }, stale))).to.be.instanceOf(StandingRefusal).and.include({ message: 'the counter is closed' });
    expect(await refusal(handleCommand({ store, ids: randomIds }, stream, guarded, { type: 'Add', n: 0 }, stale))).to.be.instanceOf(WrongExpectedRevision);
    expect(await refusal(handleCommand({ store, ids: randomIds }, stream, guarded, { type: 'Add', n: 5 }, stale))).to.be.instanceOf(WrongExpectedRevision);
    expect((await store.readStream(stream)).map((e) => e.data.n)).to.deep.equal([1]);
  });

  it('gives up after the bounded number of retries', async () => {
    const error = await refusal(handleCommand({ store: racing(10), ids: randomIds }, stream, counter, { type: 'Add', n: 5 }, { metadata: {}, expected: { retry: { onVersionConflict: 2 } } }));
    expect(error).to.be.instanceOf(WrongExpectedRevision);
    expect(decided).to.equal(3);
    expect((await store.readStream(stream)).map((e) => e.data.n)).to.deep.equal([1, 100, 100, 100]);
  });

  it('with a claim: of two concurrent creates with one value exactly one wins; the other writes nothing', async () => {
    const claimDecider = uniqueClaimDecider((value, holder) => new DomainError('value_taken' as DomainErrorCode, `${value} is held by ${holder}`));
    const value = `v-${crypto.randomUUID()}`;
    const create = (holderId: string) => handleCommand(
      { store, ids: randomIds, clock: { now: () => new Date() } }, `holder-${holderId}`, counter, { type: 'Add', n: 1 },
      { metadata: {}, expected: { newStream: true }, claim: { decider: claimDecider, scope: 'test', value, holderId, holderStream: (h) => `holder-${h}` } },
    );
    const outcomes = await Promise.allSettled([create('a'), create('b')]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(won).to.have.length(1);
    expect(lost).to.have.length(1);
    expect(lost[0]).to.be.instanceOf(DomainError).with.property('code', 'value_taken');
    const claims = await store.readStream(claimStream('test', value));
    expect(claims).to.have.length(1);
    const winner = String(claims[0]?.data.holder_id);
    const loser = winner === 'a' ? 'b' : 'a';
    expect(await store.readStream(`holder-${winner}`)).to.have.length(1);
    expect(await store.readStream(`holder-${loser}`)).to.deep.equal([]);
  });

  it('readAndFold folds stored events as the store upcasts them', async () => {
    // an older shape: { amount } (version 1, stored without a version) where the decider now folds { n } (version 2)
    const upcasting = upcastOnRead(store, { versions: { Added: 2 }, upcasters: { Added: [({ amount, ...rest }) => ({ ...rest, n: amount })] } });
    const old = `upcast-${crypto.randomUUID()}`;
    await store.append(old, [{ id: crypto.randomUUID(), type: 'Added', data: { amount: 7 }, metadata: {} }], 'no_stream');
    await upcasting.append(old, [added(1)], 0);
    const folded = await readAndFold(upcasting, old, counter);
    expect(folded.state.total).to.equal(8);
    expect(folded.revision).to.equal(1);
    expect((await readAndFold(store, `missing-${crypto.randomUUID()}`, counter)).revision).to.equal(-1);
  });
});
