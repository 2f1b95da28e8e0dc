import { expect } from 'chai';
import { Subject, take, firstValueFrom, toArray } from 'rxjs';
import { pollingSubscription } from '../../src/platform/eventstore/polling.ts';
import type { Position, RecordedEvent } from '../../src/platform/eventstore/port.ts';
import { sleep } from './support.ts';

function event(n: number): RecordedEvent {
  return {
    id: `id-${n}`,
    streamId: 's',
    revision: n,
    position: String(n).padStart(5, '0'),
    type: 'E',
    data: {},
    metadata: {},
    recordedAt: new Date(0),
  };
}

/** A fake log of `events` served page by page, recording every call. */
function fakeLog(events: RecordedEvent[]) {
  const calls: Position[] = [];
  const readPage = async (after: Position, limit: number) => {
    calls.push(after);
    return events.filter((e) => e.position > after).slice(0, limit);
  };
  return { calls, readPage };
}

describe('polling subscription', () => {
  it('catches up page by page, asking for each page after the last one it emitted', async () => {
    const log = fakeLog([1, 2, 3, 4, 5].map(event));
    const events = await firstValueFrom(
      pollingSubscription(log.readPage, new Subject(), '', { pageSize: 2, pollIntervalMs: 10_000 }).pipe(take(5), toArray()),
    );
    expect(events.map((e) => e.revision)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(log.calls).to.deep.equal(['', '00002', '00004']);
  });

  it('polls again at once when woken, not after the interval', async () => {
    const all = [event(1)];
    const log = fakeLog(all);
    const wake$ = new Subject<Position>();
    const received: RecordedEvent[] = [];
    const subscription = pollingSubscription(log.readPage, wake$, '', { pageSize: 10, pollIntervalMs: 10_000 }).subscribe((e) =>
      received.push(e),
    );
    await sleep(20);
    all.push(event(2));
    wake$.next('00002');
    await sleep(20);
    subscription.unsubscribe();
    expect(received.map((e) => e.revision)).to.deep.equal([1, 2]);
  });

  it('stops polling when unsubscribed', async () => {
    const log = fakeLog([]);
    const subscription = pollingSubscription(log.readPage, new Subject(), '', { pageSize: 10, pollIntervalMs: 5 }).subscribe();
    await sleep(40);
    subscription.unsubscribe();
    const calls = log.calls.length;
    expect(calls).to.be.greaterThan(1);
    await sleep(40);
    expect(log.calls.length).to.equal(calls);
  });

  it('reports a failing read on the error channel', async () => {
    const failure = new Error('connection lost');
    const readPage = async (): Promise<RecordedEvent[]> => {
      throw failure;
    };
    const error = await firstValueFrom(pollingSubscription(readPage, new Subject(), '', { pageSize: 10, pollIntervalMs: 5 })).catch(
      (e: unknown) => e,
    );
    expect(error).to.equal(failure);
  });
});
