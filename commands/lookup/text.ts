import { InvalidFields } from '../shared/invalid-fields.ts';

/** Search text: at least this many letters or digits once trimmed (two letters match half the register). */
export const MIN_QUERY_LENGTH = 3;
/** The spec's limit on `q`. */
export const MAX_QUERY_LENGTH = 200;

/**
 * The form in which names are compared: Unicode-decomposed with the combining marks dropped
 * (š → s, ľ → l, ô → o), lower case, punctuation as space, runs of space collapsed. So "kosice"
 * finds "Košice", and "Mliekáreň, a.s." matches "mliekaren a s".
 */
export function foldText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The search text as the registries get it: trimmed, inner whitespace collapsed; 422 on `q` when
 * it has fewer than MIN_QUERY_LENGTH letters or digits, or more than MAX_QUERY_LENGTH characters.
 */
export function searchQuery(raw: string): string {
  const query = raw.trim().replace(/\s+/g, ' ');
  const problem = [...query].length > MAX_QUERY_LENGTH
    ? `q must be at most ${MAX_QUERY_LENGTH} characters`
    : foldText(query).replace(/ /g, '').length < MIN_QUERY_LENGTH
      ? `q must have at least ${MIN_QUERY_LENGTH} letters or digits`
      : null;
  if (problem) throw new InvalidFields([{ loc: ['query', 'q'], msg: problem, type: 'value_error.q', input: raw }]);
  return query;
}

/** Whether a name matches the search: every word of the query occurs in the name, diacritics, case and punctuation aside. */
export function nameMatches(name: string, query: string): boolean {
  const haystack = ` ${foldText(name)} `;
  return foldText(query).split(' ').filter(Boolean).every((word) => haystack.includes(word));
}
