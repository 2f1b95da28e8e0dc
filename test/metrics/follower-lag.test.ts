import { expect } from 'chai';
import type { RecordedEvent } from '../../src/platform/eventstore/port.ts';
import { followerLags } from '../../src/platform/metrics/follower-lag.ts';

const event = (position: string, type: string, secondsAgo: number, now: Date): RecordedEvent => ({
  id: position, streamId: 's', revision: 0, position, type, data: {}, metadata: {} as RecordedEvent['metadata'], recordedAt: new Date(now.getTime() - secondsAgo * 1000),
});

describe('metrics: follower lag', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const log = [event('1', 'InvoiceCreated', 30, now), event('2', 'CustomerRegistered', 20, now), event('3', 'InvoiceQueued', 10, now)];
  let reads = 0;
  const store = { readAll: (after: string) => (reads++, Promise.resolve(log.filter((e) => e.position > after))) };

  it('counts only the events a follower handles, aged from the first of them; one read per position', async () => {
    reads = 0;
    const lags = await followerLags(store, [
      { kind: 'reactor', name: 'peppol', position: '', handles: ['InvoiceQueued'] },
      { kind: 'projector', name: 'register', position: '', handles: ['InvoiceCreated', 'InvoiceQueued'] },
      { kind: 'reactor', name: 'idle', position: '', handles: ['PaymentRecorded'] },
      { kind: 'projector', name: 'caught-up', position: '3', handles: ['InvoiceCreated'] },
    ], now);
    expect(lags).to.deep.equal([
      { kind: 'reactor', name: 'peppol', events: 1, seconds: 10 },
      { kind: 'projector', name: 'register', events: 2, seconds: 30 },
      { kind: 'reactor', name: 'idle', events: 0, seconds: 0 },
      { kind: 'projector', name: 'caught-up', events: 0, seconds: 0 },
    ]);
    expect(reads).to.equal(2);
  });
});
