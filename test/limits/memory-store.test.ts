import { expect } from 'chai';
import { createMemoryStore } from '../../src/platform/limits/memory-store.ts';

describe('memory bucket store', () => {
  let nowMs = 0;
  const now = () => nowMs;
  beforeEach(() => (nowMs = 0));

  it('limits a key to its burst, refills at rpm/60 per second, and keeps keys apart', async () => {
    const store = createMemoryStore({ now });
    for (let i = 0; i < 15; i++) expect((await store.take('a', 10, 15)).allowed).to.equal(true);
    expect(await store.take('a', 10, 15)).to.deep.equal({ allowed: false, retryAfterSeconds: 6 });
    expect((await store.take('b', 10, 15)).allowed).to.equal(true);
    nowMs = 6_000;
    expect((await store.take('a', 10, 15)).allowed).to.equal(true);
    expect((await store.take('a', 10, 15)).allowed).to.equal(false);
  });

  it('never limits, nor keeps, an unlimited bucket', async () => {
    const store = createMemoryStore({ now });
    for (let i = 0; i < 1000; i++) expect((await store.take('u', -1, -1)).allowed).to.equal(true);
    expect(store.size).to.equal(0);
  });

  it('peeks without taking', async () => {
    const store = createMemoryStore({ now });
    await store.take('a', 10, 1);
    expect(await store.peek('a', 10, 1)).to.deep.equal({ allowed: false, retryAfterSeconds: 6 });
    expect((await store.peek('b', 10, 1)).allowed).to.equal(true);
    expect(store.size).to.equal(1);
  });

  it('keeps at most maxKeys buckets, dropping the least recently used', async () => {
    const store = createMemoryStore({ now, maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) await store.take(key, 10, 1);
    await store.take('a', 10, 1); // a is now the most recently used
    await store.take('d', 10, 1);
    expect(store.size).to.equal(3);
    expect((await store.take('b', 10, 1)).allowed, 'b was dropped: it starts full').to.equal(true);
    expect((await store.take('a', 10, 1)).allowed, 'a was kept: still empty').to.equal(false);
  });

  it('stays bounded under many distinct keys', async () => {
    const store = createMemoryStore({ now, maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) await store.take(`ip:${i}`, 30, 50);
    expect(store.size).to.equal(100);
  });

  it('forgets buckets that are full again, so an idle service holds nothing', async () => {
    const store = createMemoryStore({ now });
    for (let i = 0; i < 100; i++) await store.take(`k${i}`, 60, 100); // full again after 1 s
    nowMs = 2_000;
    for (let i = 0; i < 60; i++) await store.take('busy', 6000, 10_000);
    expect(store.size).to.equal(1);
  });
});
