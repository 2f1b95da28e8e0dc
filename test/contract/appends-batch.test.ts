import { expect } from 'chai';
import { AppendsBatch } from '../../src/platform/eventstore/postgres/appends-batch.ts';
import { WrongExpectedRevision, type AppendResult, type StreamWrite } from '../../src/platform/eventstore/port.ts';

const write = (streamId: string, expected: number | 'no_stream' = 'no_stream'): StreamWrite => ({
  streamId, expected, events: [{ id: crypto.randomUUID(), type: 'Happened', data: {}, metadata: {} }],
});

/** A store whose streams are at the revisions given, remembering what each statement carried. */
function fakeStore(heads: Record<string, number> = {}) {
  const statements: string[][] = [];
  const at = new Map(Object.entries(heads));
  const fits = (w: StreamWrite) => (w.expected === 'no_stream' ? !at.has(w.streamId) : at.get(w.streamId) === w.expected);
  const apply = (w: StreamWrite): AppendResult => {
    const next = (at.get(w.streamId) ?? -1) + w.events.length;
    at.set(w.streamId, next);
    return { nextRevision: next, position: `${w.streamId}@${next}` };
  };
  const together = async (writes: readonly StreamWrite[]) => {
    statements.push(writes.map((w) => w.streamId));
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (!writes.every(fits)) throw new Error('nothing written');
    return writes.map(apply);
  };
  const alone = async (w: StreamWrite) => {
    statements.push([w.streamId]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (!fits(w)) throw new WrongExpectedRevision(w.streamId, w.expected, at.get(w.streamId) ?? 'no_stream');
    return apply(w);
  };
  return { batch: new AppendsBatch(together, alone), statements };
}

describe('single-stream appends made together (AppendsBatch)', () => {
  it('share one statement, each answered with its own stream\'s result', async () => {
    const { batch, statements } = fakeStore({ series: 4 });
    const results = await Promise.all([batch.submit(write('series', 4)), batch.submit(write('usage'))]);
    expect(statements).to.deep.equal([['series', 'usage']]);
    expect(results).to.deep.equal([{ nextRevision: 5, position: 'series@5' }, { nextRevision: 0, position: 'usage@0' }]);
  });

  it('a lone append goes alone, and appends of a later turn in a statement of their own', async () => {
    const { batch, statements } = fakeStore();
    await batch.submit(write('a'));
    await Promise.all([batch.submit(write('b')), batch.submit(write('c'))]);
    expect(statements).to.deep.equal([['a'], ['b', 'c']]);
  });

  it('tries each append alone when the shared statement fails: only the stale one is refused', async () => {
    const { batch, statements } = fakeStore({ moved: 3 });
    const outcomes = await Promise.allSettled([batch.submit(write('x')), batch.submit(write('moved', 2)), batch.submit(write('y'))]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).to.be.instanceOf(WrongExpectedRevision).with.property('streamId', 'moved');
    expect(statements[0]).to.deep.equal(['x', 'moved', 'y']);
    expect(statements.slice(1)).to.have.deep.members([['x'], ['moved'], ['y']]);
  });

  it('never puts two appends to one stream in one statement: they race as they would alone', async () => {
    const { batch, statements } = fakeStore({ same: 0 });
    const outcomes = await Promise.allSettled([batch.submit(write('same', 0)), batch.submit(write('other')), batch.submit(write('same', 0))]);
    expect(statements.slice(0, 2)).to.deep.equal([['same', 'other'], ['same']]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected']);
  });
});
