import { expect } from 'chai';
import { cacheTtlMs } from './cache-policy.ts';

describe('lookup: how long an answer is cached', () => {
  const day = 24 * 3600_000;
  it('a complete answer for the configured TTL', () => expect(cacheTtlMs('complete', day)).to.equal(day));
  it('a partial answer (a source was down) for a minute at most', () => expect(cacheTtlMs('partial', day)).to.equal(60_000));
  it('a not-found for ten minutes at most', () => expect(cacheTtlMs('not_found', day)).to.equal(600_000));
  it('search suggestions for ten minutes at most', () => expect(cacheTtlMs('search', day)).to.equal(600_000));
  it('never longer than configured; 0 caches nothing', () => {
    expect(cacheTtlMs('partial', 5_000)).to.equal(5_000);
    expect(['complete', 'partial', 'not_found'].map((k) => cacheTtlMs(k as 'complete', 0))).to.deep.equal([0, 0, 0]);
  });
});
