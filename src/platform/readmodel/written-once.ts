/**
 * Read-model rows that are written once and never change afterwards (a company; a customer's party
 * fields). A found row can be kept and served without a query; a missing one is asked for again
 * each time, since it may be projected a moment later. Bounded: past `max` rows the least recently
 * used goes. Keep a row here only while no event changes it after its first one: the guard is
 * test/readmodel/written-once.test.ts, which lists the events of the projectors concerned.
 */
export class WrittenOnce<Row> {
  private readonly rows = new Map<string, Row>();

  constructor(private readonly max = 10_000) {}

  async get(key: string, load: () => Promise<Row | null>): Promise<Row | null> {
    const kept = this.rows.get(key);
    if (kept !== undefined) {
      this.rows.delete(key); // re-inserted last: the map's order is least recently used first
      this.rows.set(key, kept);
      return kept;
    }
    const row = await load();
    if (row !== null) {
      this.rows.set(key, row);
      if (this.rows.size > this.max) this.rows.delete(this.rows.keys().next().value as string);
    }
    return row;
  }

  get size(): number {
    return this.rows.size;
  }
}
