import { newSecret, sha256Hex } from './credential-secrets.ts';

/** Spec: a login refresh token lives 30 days. */
const REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 86_400;

const FAMILY_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** rt_<family>.<43 base64url characters: 256 random bits> */
const REFRESH_TOKEN = /^rt_([A-Za-z0-9_-]{1,128})\.[A-Za-z0-9_-]{43}$/;

/**
 * An opaque refresh token that names its family, so refreshing reads one stream and never scans
 * for a hash. Only `hash` (SHA-256 hex of the whole token) is stored.
 */
export function newRefreshToken(familyId: string): { token: string; hash: string } {
  if (!FAMILY_ID.test(familyId)) throw new Error('a refresh family id must be 1-128 characters of [A-Za-z0-9_-]');
  const token = `rt_${familyId}.${newSecret(32)}`;
  return { token, hash: sha256Hex(token) };
}

/** The family and hash of a presented token; null when it cannot be one of ours. */
export function parseRefreshToken(token: string): { familyId: string; hash: string } | null {
  const familyId = REFRESH_TOKEN.exec(token)?.[1];
  return familyId ? { familyId, hash: sha256Hex(token) } : null;
}

/** When a refresh token issued at `at` expires, as the decider's commands carry it. */
export function refreshTokenExpiry(at: Date): string {
  return new Date(at.getTime() + REFRESH_TOKEN_LIFETIME_SECONDS * 1000).toISOString();
}
