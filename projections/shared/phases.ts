/**
 * A batch of a table that rows are inserted into once (ON CONFLICT DO NOTHING) and then changed by
 * key, cut into three set-based phases that give the same rows as applying the events one by one:
 * `early`, the changes of keys made before the key's first insert in the batch (they can only hit
 * a row an earlier batch made); `inserts`, the first insert of each key (a later one would change
 * nothing); `late`, the changes after it. Rows of different keys are independent, so only each
 * key's own order matters, and each phase keeps it. A projector folds each phase's changes per key
 * (the last value of each column, or the first that applies) and writes each phase in one statement.
 * `isInsert` tells the inserting events apart by type, so each phase comes typed by what it holds.
 */
export function insertPhases<Event, Insert extends Event>(
  events: readonly Event[],
  keyOf: (event: Event) => string,
  isInsert: (event: Event) => event is Insert,
): { early: Exclude<Event, Insert>[]; inserts: Insert[]; late: Exclude<Event, Insert>[] } {
  const early: Exclude<Event, Insert>[] = [];
  const inserts: Insert[] = [];
  const late: Exclude<Event, Insert>[] = [];
  const inserted = new Set<string>();
  for (const event of events) {
    const key = keyOf(event);
    if (isInsert(event)) {
      if (!inserted.has(key)) inserts.push(event);
      inserted.add(key);
    } else (inserted.has(key) ? late : early).push(event as Exclude<Event, Insert>);
  }
  return { early, inserts, late };
}

/** Folds a phase's changes per key with `merge` (in order), keeping the keys' first-seen order. */
export function foldByKey<T, Event>(events: readonly Event[], keyOf: (event: Event) => string, merge: (seen: T | undefined, event: Event) => T): T[] {
  const byKey = new Map<string, T>();
  for (const event of events) {
    const key = keyOf(event);
    byKey.set(key, merge(byKey.get(key), event));
  }
  return [...byKey.values()];
}
