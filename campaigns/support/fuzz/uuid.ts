import type { Random } from './random.ts';

/** A version-4 UUID from the seeded generator (crypto.randomUUID would break reproduction). */
export function randomUuid(rnd: Random): string {
  const hex = Array.from({ length: 32 }, () => rnd.int(0, 15).toString(16));
  hex[12] = '4';
  hex[16] = (8 + rnd.int(0, 3)).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
