import { expect } from 'chai';
import { MAX_ATTEMPTS, nextAttemptAfter } from '../../src/modules/webhooks/retry-schedule.ts';

describe('webhook retry schedule', () => {
  const t0 = new Date('2026-11-24T10:00:00.000Z');
  const waits = (scale: number) => [1, 2, 3, 4, 5].map((n) => {
    const next = nextAttemptAfter(n, t0, scale);
    return next === null ? null : (next.getTime() - t0.getTime()) / 1000;
  });

  it('waits 5, 25, 125 and 625 s after failures 1-4, and drops the event after the fifth', () => {
    expect(MAX_ATTEMPTS).to.equal(5);
    expect(waits(1)).to.deep.equal([5, 25, 125, 625, null]);
  });

  it('WEBHOOK_BACKOFF_SCALE shrinks every wait alike', () => {
    expect(waits(0.001)).to.deep.equal([0.005, 0.025, 0.125, 0.625, null]);
  });
});
