/**
 * A map whose entries expire at their own time (an OCSP answer's or a CRL's nextUpdate) and that
 * never holds more than `maxEntries`: the oldest entry goes first. Keys come from certificates
 * peers send, so an unbounded map would be theirs to fill.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, until: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
