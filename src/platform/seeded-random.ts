/**
 * mulberry32: a small, fast, seeded PRNG with values in [0, 1). The same seed gives the same
 * sequence, so a fault hook's moment to die, a campaign's load and a generated test case can be
 * replayed from the seed they print. Not for anything secret (node:crypto is).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
