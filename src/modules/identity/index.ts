// The identity module's door: what other modules, the front doors and the composition root may use of it.
export { ApiKeyLookup } from './api-key-lookup.ts';
export { callerResolver } from './caller.ts';
export { matchesStoredHash } from './compare.ts';
export { hashPassword, newApiKey, newSecret, sha256Hex } from './credential-secrets.ts';
export type { Credentials } from './credentials.ts';
export { InvalidToken } from './invalid-token.ts';
export { LastUsed } from './last-used.ts';
export { startRevocationFeed } from './revocation-feed.ts';
export { Revocations } from './revocations.ts';
export { loadSigningKeys, type SigningKeyRing, type SigningKeys } from './signing-keys.ts';
export { jwks, verifyAccessToken } from './tokens.ts';
export { totpSecrets, type TotpSecrets } from './totp-secrets.ts';
