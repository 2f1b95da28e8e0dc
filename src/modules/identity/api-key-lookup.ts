import type { DataSource } from 'typeorm';
import { findActiveApiKey } from '../../../projections/api-keys/queries.ts';
import type { ActiveApiKey } from '../../../projections/api-keys/rows.ts';
import type { Clock } from '../../platform/ports/clock.ts';

/** How long a looked-up key is trusted while revocation notices reach this instance. */
const CACHE_MS = 5_000;
/** ... and while they may not (the listener is down or reconnecting): a revocation elsewhere is seen within this. */
const UNNOTIFIED_CACHE_MS = 1_000;
const MAX_ENTRIES = 10_000;

/**
 * Finds the key behind a presented key's SHA-256, with a short cache so a busy client does not
 * cost a query per request. A revocation, here or on another instance, forgets the key as soon as
 * its notice arrives (Revocations); expiry is checked on every use. Without notices (the listener
 * is down) entries are trusted for one second only.
 */
export class ApiKeyLookup {
  private readonly cache = new Map<string, { key: ActiveApiKey | null; until: number }>();
  /** bumped by every forget: a lookup that was in flight meanwhile may have read the key before its revocation, and is not cached */
  private generation = 0;
  private notified: boolean;

  constructor(private readonly deps: { readModels: DataSource; clock: Clock; notified?: boolean }) {
    this.notified = deps.notified ?? false;
  }

  async find(keyHash: string): Promise<ActiveApiKey | null> {
    const now = this.deps.clock.now();
    const cached = this.cache.get(keyHash);
    if (cached && cached.until > now.getTime()) return cached.key && this.unexpired(cached.key, now);
    const generation = this.generation;
    const key = await findActiveApiKey(this.deps.readModels, keyHash, now);
    if (generation !== this.generation) return key;
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    // unknown keys are cached too: a client retrying a bad key must not cost a query each time
    this.cache.set(keyHash, { key, until: now.getTime() + (this.notified ? CACHE_MS : UNNOTIFIED_CACHE_MS) });
    return key;
  }

  /** Forget a key (revoked or changed): the next request looks it up again. */
  forget(apiKeyId: string): void {
    this.generation++;
    for (const [hash, entry] of this.cache) if (entry.key?.id === apiKeyId) this.cache.delete(hash);
  }

  /** Forget every key (the notices may have been missed). */
  clear(): void {
    this.generation++;
    this.cache.clear();
  }

  /** Whether revocation notices reach this instance now; while they may not, entries live one second. */
  setNotified(notified: boolean): void {
    if (!notified) this.clear();
    this.notified = notified;
  }

  /** Whether a key is cached as valid here (tests: a notice must have removed it before they ask). */
  holds(apiKeyId: string): boolean {
    const now = this.deps.clock.now().getTime();
    for (const entry of this.cache.values()) if (entry.key?.id === apiKeyId && entry.until > now) return true;
    return false;
  }

  private unexpired(key: ActiveApiKey, now: Date): ActiveApiKey | null {
    return key.expires_at && new Date(key.expires_at) <= now ? null : key;
  }
}
