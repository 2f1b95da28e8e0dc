import { expect } from 'chai';
import { randomIds, resourceIdOf, withResourceSeed } from '../../src/platform/ports/ids.ts';

describe('ids under an Idempotency-Key seed', () => {
  it('derives only the first id taken under the seed; later ones, and ids outside it, stay random', async () => {
    const [first, second, third] = await withResourceSeed('seed-1', async () => {
      const a = randomIds.next();
      await new Promise((resolve) => setTimeout(resolve, 1)); // the scope follows the request across awaits
      return [a, randomIds.next(), randomIds.next()];
    });
    expect(first).to.equal(resourceIdOf('seed-1'));
    expect(new Set([first, second, third]).size).to.equal(3);
    expect(randomIds.next()).not.to.equal(resourceIdOf('seed-1'));
    // a re-run on the same seed names the same resource; another seed another one
    expect(await withResourceSeed('seed-1', async () => randomIds.next())).to.equal(first);
    expect(await withResourceSeed('seed-2', async () => randomIds.next())).not.to.equal(first);
  });

  it('parallel requests each get their own derived id', async () => {
    const ids = await Promise.all(['a', 'b', 'c'].map((seed) => withResourceSeed(seed, async () => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      return randomIds.next();
    })));
    expect(ids).to.deep.equal(['a', 'b', 'c'].map(resourceIdOf));
  });
});
