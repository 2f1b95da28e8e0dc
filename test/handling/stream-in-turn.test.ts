import { expect } from 'chai';
import type { Decider, DomainEvent } from '../../commands/shared/decider.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import type { DomainErrorCode } from '../../commands/shared/error-codes.ts';
import type { EventStore, NewEvent } from '../../src/platform/eventstore/index.ts';
import { handleCommand } from '../../src/platform/handling/command-handler.ts';
import { readAndFold } from '../../src/platform/handling/read-and-fold.ts';
import { streamInTurn } from '../../src/platform/handling/stream-in-turn.ts';
import { randomIds } from '../../src/platform/ports/ids.ts';
import { freshEventStore } from '../support/database.ts';

type Moved = DomainEvent<'Moved', { n: number }>;
type Move = { type: 'Add'; n: number } | { type: 'Withdraw'; n: number } | { type: 'Reach'; total: number };
/** A balance: a withdrawal is refused beyond it, and reaching a total it already has decides nothing. */
const balance: Decider<Move, Moved, { total: number }> = {
  initialState: { total: 0 },
  decide: (command, state) => {
    if (command.type === 'Add') return [{ type: 'Moved', data: { n: command.n } }];
    if (command.type === 'Withdraw') {
      if (state.total < command.n) throw new DomainError('insufficient' as DomainErrorCode, `only ${state.total}`);
      return [{ type: 'Moved', data: { n: -command.n } }];
    }
    return state.total >= command.total ? [] : [{ type: 'Moved', data: { n: command.total - state.total } }];
  },
  evolve: (state, event) => ({ total: state.total + event.data.n }),
};
const moved = (n: number): NewEvent => ({ id: crypto.randomUUID(), type: 'Moved', data: { n }, metadata: {} });
const options = { metadata: {}, retry: { onVersionConflict: 3 } };

describe('streamInTurn: a reaction’s steps decided on the state it holds', function () {
  let close: () => Promise<void> = async () => undefined;
  let store: EventStore;
  let reads = 0;
  let counting: EventStore;
  let stream = '';

  before(async () => {
    ({ store, close } = await freshEventStore());
    counting = Object.assign(Object.create(store) as EventStore, {
      readStream: (streamId: string) => (reads++, store.readStream(streamId)),
    });
  });
  beforeEach(async () => {
    stream = `balance-${crypto.randomUUID()}`;
    await store.append(stream, [moved(1)], 'no_stream');
    reads = 0;
  });
  after(() => close());

  const held = async () => readAndFold(store, stream, balance);
  const amounts = async () => (await store.readStream(stream)).map((e) => e.data.n);

  it('reads nothing after the first read: each step appends at the revision the previous one left', async () => {
    const on = streamInTurn({ store: counting, ids: randomIds }, stream, balance, await held(), options);
    expect((await on({ type: 'Add', n: 5 })).version).to.equal(1);
    const last = await on({ type: 'Withdraw', n: 6 });
    expect(last.version).to.equal(2);
    expect(last.state.total).to.equal(0);
    expect(reads).to.equal(0);
    expect(await amounts()).to.deep.equal([1, 5, -6]);
  });

  it('a write by another in between is a conflict on the held revision: the step is decided again on the stream', async () => {
    const on = streamInTurn({ store: counting, ids: randomIds }, stream, balance, await held(), options);
    await store.append(stream, [moved(100)], 0);
    const handled = await on({ type: 'Reach', total: 50 }); // 49 on the held state; nothing on the stream's 101
    expect(handled.events).to.deep.equal([]);
    expect(handled.state.total).to.equal(101);
    expect(reads).to.equal(1);
    expect(await amounts()).to.deep.equal([1, 100]);
    // the next step holds what that read found
    expect((await on({ type: 'Add', n: 2 })).version).to.equal(2);
    expect(reads).to.equal(1);
  });

  it('a refusal on the held state is decided again on the stream, which may accept', async () => {
    const on = streamInTurn({ store: counting, ids: randomIds }, stream, balance, await held(), options);
    await store.append(stream, [moved(100)], 0);
    const handled = await on({ type: 'Withdraw', n: 50 });
    expect(handled.state.total).to.equal(51);
    expect(reads).to.equal(1);
    expect(await amounts()).to.deep.equal([1, 100, -50]);
  });

  it('a refusal on the stream as read stays the refusal, with nothing written', async () => {
    const on = streamInTurn({ store: counting, ids: randomIds }, stream, balance, await held(), options);
    const error = await on({ type: 'Withdraw', n: 2 }).then(() => null, (e: unknown) => e);
    expect(error).to.be.instanceOf(DomainError);
    expect(await amounts()).to.deep.equal([1]);
  });

  it('decides nothing only when the stream agrees: nothing to do on the held state is decided again on the stream', async () => {
    const on = streamInTurn({ store: counting, ids: randomIds }, stream, balance, await held(), options);
    await store.append(stream, [moved(-1)], 0);
    // on the held state (1) there is nothing to do; the stream (0) says there is
    expect((await on({ type: 'Reach', total: 1 })).state.total).to.equal(1);
    expect(reads).to.equal(1);
    expect(await amounts()).to.deep.equal([1, -1, 1]);
  });

  it('is never combined with If-Match or a new stream: neither type-checks, and nothing is written', async () => {
    const known = { state: { total: 1 }, revision: 0 };
    const attempts = [
      // @ts-expect-error a held state is not the client's If-Match
      () => handleCommand({ store, ids: randomIds }, stream, balance, { type: 'Add', n: 1 }, { metadata: {}, expected: { known, ifMatch: 0 } }),
      // @ts-expect-error nor a new stream
      () => handleCommand({ store, ids: randomIds }, stream, balance, { type: 'Add', n: 1 }, { metadata: {}, expected: { known, newStream: true } }),
    ];
    expect(attempts).to.have.length(2); // compiled, never run: tsc (npm run typecheck) proves the refusal
    expect(await amounts()).to.deep.equal([1]);
  });
});
