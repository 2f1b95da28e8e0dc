import { expect } from 'chai';
import v8 from 'node:v8';
import { releaseHeap, releaseWhenIdle } from '../../src/platform/idle-memory.ts';

const youngGeneration = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.physical_space_size ?? 0;

describe('idle memory', () => {
  it('releaseHeap gives back the young generation a burst of short-lived objects grew', () => {
    let kept: { n: number; s: string }[] = [];
    for (let i = 0; i < 2_000_000; i++) {
      kept.push({ n: i, s: `x${i}` });
      if (kept.length > 100_000) kept = [];
    }
    expect(kept.length).to.be.lessThan(100_001);
    const grown = youngGeneration();
    releaseHeap();
    expect(youngGeneration()).to.be.lessThan(grown);
  });

  it('releaseWhenIdle releases once per quiet spell, not at every quiet interval', async () => {
    let released = 0;
    const stop = releaseWhenIdle(() => released++, { everyMs: 10, quietIntervals: 2 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      stop();
    }
    expect(released).to.equal(1);
  });
});
