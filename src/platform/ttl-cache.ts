import type { Clock } from './ports/clock.ts';

/**
 * A bounded in-memory cache whose entries expire. Per instance: each instance of the service asks
 * the registers for itself, which is fine for data that changes a few times a year.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(private readonly clock: Clock, private readonly maxEntries: number) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= this.clock.now().getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    if (ttlMs <= 0) return;
    this.entries.set(key, { value, expires: this.clock.now().getTime() + ttlMs });
    // a Map keeps insertion order: the first keys are the oldest
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
