import { newSecret, sha256Hex } from '../../identity/index.ts';

const PREFIX = 'sapi_rt_';
const SHAPE = /^sapi_rt_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/**
 * A refresh token: `sapi_rt_<family id>_<256 random bits>`. The family id in the clear lets renew
 * and revoke read the family's stream directly (the write side, never a lagging read model); only
 * its SHA-256 is stored, and it is opaque to clients.
 */
export function newRefreshToken(familyId: string): { token: string; hash: string } {
  const token = `${PREFIX}${familyId}_${newSecret(32)}`;
  return { token, hash: sha256Hex(token) };
}

/** The family a presented refresh token names, and its hash; null when it is not one of ours. */
export function readRefreshToken(token: string): { familyId: string; hash: string } | null {
  const match = SHAPE.exec(token.trim());
  if (!match?.[1]) return null;
  return { familyId: match[1], hash: sha256Hex(token.trim()) };
}

export const looksLikeRefreshToken = (token: string) => token.trim().startsWith(PREFIX);
