import type { DataSource } from 'typeorm';
import { findActiveApiKey, type ActiveApiKey } from '../../projections/api-keys/queries.ts';
import type { Clock } from '../ports/clock.ts';

/** How long a looked-up key is trusted without asking the read model again. */
const CACHE_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Finds the key behind a presented key's SHA-256, with a short cache so a busy client does not
 * cost a query per request. A revocation through this process forgets the key at once; another
 * instance's revocation is seen within CACHE_MS. Expiry is checked on every use.
 */
export class ApiKeyLookup {
  private readonly cache = new Map<string, { key: ActiveApiKey | null; until: number }>();

  constructor(private readonly deps: { readModels: DataSource; clock: Clock }) {}

  async find(keyHash: string): Promise<ActiveApiKey | null> {
    const now = this.deps.clock.now();
    const cached = this.cache.get(keyHash);
    if (cached && cached.until > now.getTime()) return cached.key && this.unexpired(cached.key, now);
    const key = await findActiveApiKey(this.deps.readModels, keyHash, now);
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    // unknown keys are cached too: a client retrying a bad key must not cost a query each time
    this.cache.set(keyHash, { key, until: now.getTime() + CACHE_MS });
    return key;
  }

  /** Forget a key (revoked or changed here): the next request looks it up again. */
  forget(apiKeyId: string): void {
    for (const [hash, entry] of this.cache) if (entry.key?.id === apiKeyId) this.cache.delete(hash);
  }

  private unexpired(key: ActiveApiKey, now: Date): ActiveApiKey | null {
    return key.expires_at && new Date(key.expires_at) <= now ? null : key;
  }
}
