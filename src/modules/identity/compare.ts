import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Constant-time equality of two secrets. Both sides are hashed first, so the comparison always
 * runs over 32 bytes: neither the position of the first difference nor the length leaks.
 */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** A presented secret against its stored SHA-256 (hex), as API keys and client secrets are kept. */
export function matchesStoredHash(presented: string, storedHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  // the stored side is ours, not the caller's: refusing a malformed one early leaks nothing
  if (stored.length !== 32) return false;
  return timingSafeEqual(digest(presented), stored);
}
