import { expect } from 'chai';
import { ReadAllBatch } from '../../src/platform/eventstore/postgres/read-all-batch.ts';
import type { Position, RecordedEvent } from '../../src/platform/eventstore/port.ts';

const event = (n: number, type: string): RecordedEvent => ({
  id: `e${n}`, streamId: 's', revision: n, position: String(n).padStart(4, '0'), type, data: { n }, metadata: {}, recordedAt: new Date(0),
});

/** A store's readAll statement that remembers what each statement asked. */
function fakeReads(fail = false) {
  const statements: { after: Position; limit: number; onlyDataOf: readonly string[] | undefined }[] = [];
  const read = async (after: Position, limit: number, onlyDataOf: readonly string[] | undefined) => {
    statements.push({ after, limit, onlyDataOf });
    await new Promise((resolve) => setTimeout(resolve, 2));
    if (fail) throw new Error('connection lost');
    return [event(1, 'A'), event(2, 'B')].filter((e) => e.position > after).slice(0, limit);
  };
  return { read, statements };
}

describe('readAll calls in one turn (followers woken by one append)', () => {
  it('share one statement per page, with the data of every type asked, and each caller its own events', async () => {
    const { read, statements } = fakeReads();
    const batch = new ReadAllBatch(read);
    const [a, b, c, other] = await Promise.all([
      batch.submit('0000', 100, ['A']), batch.submit('0000', 100, ['B']), batch.submit('0000', 100, ['A', 'C']), batch.submit('0001', 100, ['A']),
    ]);
    expect(statements).to.deep.equal([{ after: '0000', limit: 100, onlyDataOf: ['A', 'B', 'C'] }, { after: '0001', limit: 100, onlyDataOf: ['A'] }]);
    for (const page of [a, b, c]) expect(page?.map((e) => e.id)).to.deep.equal(['e1', 'e2']);
    expect(other?.map((e) => e.id)).to.deep.equal(['e2']);
    expect(a).to.not.equal(b);
    expect(a?.[0]).to.not.equal(b?.[0]);
  });

  it('asks every type\'s data when one caller names none, keeps pages of other limits apart, and reads again in a later turn', async () => {
    const { read, statements } = fakeReads();
    const batch = new ReadAllBatch(read);
    await Promise.all([batch.submit('0000', 100, ['A']), batch.submit('0000', 100), batch.submit('0000', 1, ['A'])]);
    await batch.submit('0000', 100, ['A']);
    expect(statements).to.deep.equal([
      { after: '0000', limit: 100, onlyDataOf: undefined }, { after: '0000', limit: 1, onlyDataOf: ['A'] }, { after: '0000', limit: 100, onlyDataOf: ['A'] },
    ]);
  });

  it('gives a failed statement\'s error to every call it served', async () => {
    const { read } = fakeReads(true);
    const batch = new ReadAllBatch(read);
    const outcomes = await Promise.allSettled([batch.submit('0000', 10, ['A']), batch.submit('0000', 10, ['B'])]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
  });
});
