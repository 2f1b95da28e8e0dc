// A small seeded PRNG (mulberry32), so a failing generated case reproduces from its seed.
import { seededRandom } from '../../../src/platform/seeded-random.ts';

export class Seeded {
  private readonly random: () => number;
  constructor(seed: number) {
    this.random = seededRandom(seed);
  }
  /** [0, 1) */
  next(): number {
    return this.random();
  }
  /** integer in [min, max] */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  digits(n: number): string {
    return Array.from({ length: n }, () => String(this.int(0, 9))).join('');
  }
}
