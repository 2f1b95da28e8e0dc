/**
 * Registers keep history: a name, an address or a legal form is an entry valid from one day to
 * another (RPO's validFrom/validTo). These rules pick what holds today.
 */
export interface Dated {
  validFrom?: string | null;
  validTo?: string | null;
}

const day = (value: string | null | undefined): string | null => (value ? value.slice(0, 10) : null);

/** In force on `today` (YYYY-MM-DD): started (or no start given) and not ended (validTo is the last day it held). */
function inForce(entry: Dated, today: string): boolean {
  const from = day(entry.validFrom);
  const to = day(entry.validTo);
  return (from === null || from <= today) && (to === null || to >= today);
}

/**
 * The entry that holds today: of those in force, the one that started last (a change takes over
 * on its first day even if the register closed the old one a day late). When none is in force (a
 * terminated company, whose every entry was closed), the last one that started by today, so such a
 * company keeps its last name and seat. Entries that start in the future never count.
 */
export function currentEntry<T extends Dated>(entries: readonly T[] | null | undefined, today: string): T | null {
  const started = (entries ?? []).filter((e) => (day(e.validFrom) ?? '') <= today);
  const latestFirst = (pool: T[]) => [...pool].sort((a, b) => (day(b.validFrom) ?? '').localeCompare(day(a.validFrom) ?? ''))[0] ?? null;
  return latestFirst(started.filter((e) => inForce(e, today))) ?? latestFirst(started);
}

/** A company is terminated once its termination day has come (a date announced for later is not yet). */
export function terminatedBy(termination: string | null | undefined, today: string): boolean {
  const end = day(termination);
  return end !== null && end <= today;
}
