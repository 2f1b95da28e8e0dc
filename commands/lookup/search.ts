import { registryUnavailable, type SourceName } from './sources.ts';

/** One suggestion of a name search (spec: ico, name, street, city, terminated default false). */
export interface CompanySuggestion {
  ico: string;
  name: string;
  street: string | null;
  city: string | null;
  terminated: boolean;
}

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;

/** How one searching source answered. */
export type SearchOutcome =
  | { source: SourceName; status: 'found'; results: CompanySuggestion[] }
  | { source: SourceName; status: 'unavailable'; reason: string };

/**
 * The suggestions of all sources that searched, as one list: one entry per IČO (the first source's,
 * by source order), companies still in business before terminated ones, each group in the order the
 * sources ranked them, at most `limit`. When every searching source was down: 502
 * `company_registry_unavailable` (an empty list would wrongly say nothing matches).
 */
export function mergeSearch(outcomes: readonly SearchOutcome[], limit: number): { results: CompanySuggestion[]; complete: boolean } {
  const answered = outcomes.filter((o): o is Extract<SearchOutcome, { status: 'found' }> => o.status === 'found');
  if (answered.length === 0) throw registryUnavailable(outcomes.map((o) => o.source));
  const seen = new Set<string>();
  const unique = answered.flatMap((o) => o.results).filter((s) => !seen.has(s.ico) && Boolean(seen.add(s.ico)));
  const ranked = [...unique.filter((s) => !s.terminated), ...unique.filter((s) => s.terminated)];
  return { results: ranked.slice(0, limit), complete: answered.length === outcomes.length };
}
