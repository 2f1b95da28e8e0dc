import type { ApiKeyLookup } from './api-key-lookup.ts';
import type { LastUsed } from './last-used.ts';
import type { Revocations } from './revocations.ts';

/** Credentials as requests check them: API key lookups (cached briefly), their last use (written in batches), and the revoked sessions and clients every instance learns of at once. */
export interface Credentials {
  apiKeys: ApiKeyLookup;
  lastUsed: LastUsed;
  revocations: Revocations;
}
