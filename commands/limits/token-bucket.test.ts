import { expect } from 'chai';
import { fullAtMs, peek, take, type Bucket } from './token-bucket.ts';

/** Takes n times at one instant; returns how many were allowed and the last answer. */
function takeMany(n: number, start: Bucket | undefined, nowMs: number, rpm: number, burst: number) {
  let bucket = start;
  let allowed = 0;
  let last: ReturnType<typeof take> = { allowed: true, retryAfterSeconds: 0 };
  for (let i = 0; i < n; i++) {
    last = take(bucket, nowMs, rpm, burst);
    if (last.allowed) allowed++;
    bucket = last.bucket;
  }
  return { allowed, last, bucket };
}

describe('token bucket', () => {
  it('starts full: a burst of `burst` requests is allowed at once, the next is refused', () => {
    const { allowed, last } = takeMany(51, undefined, 0, 30, 50);
    expect(allowed).to.equal(50);
    expect(last.allowed).to.equal(false);
  });

  it('refills rpm/60 tokens per second', () => {
    const empty = takeMany(50, undefined, 0, 30, 50).bucket;
    expect(take(empty, 1_999, 30, 50).allowed, 'half a second short of one token').to.equal(false);
    expect(take(empty, 2_000, 30, 50).allowed, '30 rpm gives one token every 2 s').to.equal(true);
    expect(takeMany(6, empty, 10_000, 30, 50).allowed, 'five tokens after 10 s').to.equal(5);
  });

  it('never refills beyond the burst', () => {
    const empty = takeMany(15, undefined, 0, 10, 15).bucket;
    expect(takeMany(20, empty, 3_600_000, 10, 15).allowed).to.equal(15);
  });

  it('tells how long until one token is back, rounded up to whole seconds', () => {
    const empty = takeMany(15, undefined, 0, 10, 15).bucket; // 10 rpm: one token per 6 s
    expect(take(empty, 0, 10, 15).retryAfterSeconds).to.equal(6);
    expect(take(empty, 4_500, 10, 15).retryAfterSeconds).to.equal(2);
  });

  it('asks to wait at least one second', () => {
    const empty = takeMany(200, undefined, 0, 120, 200).bucket; // one token per 0.5 s
    expect(take(empty, 400, 120, 200).retryAfterSeconds).to.equal(1);
  });

  it('answers 0 seconds when allowed', () => expect(take(undefined, 0, 10, 15).retryAfterSeconds).to.equal(0));

  it('never limits an unlimited (-1) plan and keeps nothing for it', () => {
    const result = takeMany(10_000, undefined, 0, -1, -1);
    expect(result.allowed).to.equal(10_000);
    expect(result.bucket).to.equal(undefined);
  });

  it('refills nothing, and takes nothing extra, when the clock goes back', () => {
    const empty = takeMany(15, undefined, 10_000, 10, 15).bucket;
    expect(take(empty, 0, 10, 15).allowed).to.equal(false);
  });

  it('peeks without taking', () => {
    const one = takeMany(14, undefined, 0, 10, 15).bucket;
    expect(peek(one, 0, 10, 15).allowed).to.equal(true);
    expect(peek(one, 0, 10, 15).allowed).to.equal(true);
    const empty = take(one, 0, 10, 15).bucket;
    expect(peek(empty, 0, 10, 15)).to.deep.equal({ allowed: false, retryAfterSeconds: 6 });
  });

  it('knows when a bucket is full again (and may be forgotten)', () => {
    const empty = takeMany(15, undefined, 0, 10, 15).bucket!;
    expect(fullAtMs(empty, 10, 15)).to.equal(90_000);
    expect(fullAtMs({ tokens: 15, updatedAtMs: 5 }, 10, 15)).to.equal(5);
  });
});
