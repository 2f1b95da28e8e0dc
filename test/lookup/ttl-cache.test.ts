import { expect } from 'chai';
import { TtlCache } from '../../src/platform/ttl-cache.ts';

describe('lookup cache', () => {
  let now = 0;
  const clock = { now: () => new Date(now) };

  it('forgets an entry when its time is up', () => {
    const cache = new TtlCache<string>(clock, 10);
    cache.set('a', 'x', 1_000);
    now += 999;
    expect(cache.get('a')).to.equal('x');
    now += 1;
    expect(cache.get('a')).to.equal(undefined);
  });

  it('keeps at most maxEntries, dropping the oldest first', () => {
    const cache = new TtlCache<number>(clock, 2);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i, 60_000);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).to.deep.equal([undefined, 1, 2, 2]);
  });

  it('a TTL of 0 stores nothing and forgets what was there', () => {
    const cache = new TtlCache<number>(clock, 2);
    cache.set('a', 1, 60_000);
    cache.set('a', 2, 0);
    expect(cache.get('a')).to.equal(undefined);
  });
});
