import { expect } from 'chai';
import { NewStreamsBatch } from '../../src/platform/eventstore/postgres/new-streams-batch.ts';
import { WrongExpectedRevision, type AppendResult, type NewStream } from '../../src/platform/eventstore/port.ts';

const stream = (streamId: string): NewStream => ({ streamId, events: [{ id: crypto.randomUUID(), type: 'Started', data: {}, metadata: {} }] });

/** A store's one statement, all or nothing, that remembers what each statement carried. */
function fakeStatements(existing: string[] = []) {
  const statements: string[][] = [];
  const written = new Set(existing);
  const start = async (streams: readonly NewStream[]): Promise<AppendResult[]> => {
    statements.push(streams.map((s) => s.streamId));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const taken = streams.find((s) => written.has(s.streamId));
    if (taken) throw new WrongExpectedRevision(taken.streamId, 'no_stream', 0);
    streams.forEach((s) => written.add(s.streamId));
    return streams.map((s) => ({ nextRevision: 0, position: s.streamId }));
  };
  return { start, statements };
}

describe('appendToNewStreams under load (group commit)', () => {
  it('sends concurrent calls in one statement once the one in flight ends, and answers each with its own results', async () => {
    const { start, statements } = fakeStatements();
    const batch = new NewStreamsBatch(start);
    const calls = ['a', 'b', 'c', 'd'].map((id) => batch.submit([stream(`claim-${id}`), stream(`invoice-${id}`)]));
    const results = await Promise.all(calls);
    expect(statements).to.deep.equal([['claim-a', 'invoice-a'], ['claim-b', 'invoice-b', 'claim-c', 'invoice-c', 'claim-d', 'invoice-d']]);
    expect(results.map((r) => r.map((x) => x.position))).to.deep.equal([['claim-a', 'invoice-a'], ['claim-b', 'invoice-b'], ['claim-c', 'invoice-c'], ['claim-d', 'invoice-d']]);
  });

  it('tries each call alone when a shared statement fails: only the call whose stream exists is refused', async () => {
    const { start } = fakeStatements(['claim-taken']);
    const batch = new NewStreamsBatch(start);
    const first = batch.submit([stream('claim-0')]);
    const outcomes = await Promise.allSettled([first, ...['x', 'taken', 'y'].map((id) => batch.submit([stream(`claim-${id}`), stream(`invoice-${id}`)]))]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const refused = outcomes[2] as PromiseRejectedResult;
    expect(refused.reason).to.be.instanceOf(WrongExpectedRevision).with.property('streamId', 'claim-taken');
  });

  it('never puts two calls naming one stream in one statement: the later waits for the next and meets the first as a conflict', async () => {
    const { start, statements } = fakeStatements();
    const batch = new NewStreamsBatch(start);
    const outcomes = await Promise.allSettled([batch.submit([stream('x')]), batch.submit([stream('same')]), batch.submit([stream('same')]), batch.submit([stream('z')])]);
    expect(statements).to.deep.equal([['x'], ['same', 'z'], ['same']]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  });
});
