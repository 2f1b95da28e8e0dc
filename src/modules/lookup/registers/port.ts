import type { CompanySuggestion } from '../../../../commands/lookup/search.ts';
import type { CompanyFacts, SourceName } from '../../../../commands/lookup/sources.ts';

/** What a source is asked with: the IČO, the DIČ once another source gave one, and the day (registers keep history). */
export interface LookupKey {
  ico: string;
  dic: string | null;
  /** YYYY-MM-DD: what holds on this day is current */
  today: string;
}

export interface SearchKey {
  /** the search text, trimmed */
  text: string;
  /** the text is itself a valid IČO: search by identifier */
  ico: string | null;
  today: string;
}

/**
 * One company register, as the lookup sees it. Adapters: the Statistical Office's RPO, the
 * register of financial statements (RegisterUZ), the EU's VIES, and the sandbox's fixtures.
 * Any failure to answer (down, a timeout, an answer it cannot read) is thrown; the lookup then
 * goes on without the source.
 */
export interface CompanyRegistry {
  readonly source: SourceName;
  /** asks with the DIČ (VIES): asked after the others, and only when one of them gave a DIČ */
  readonly needsDic: boolean;
  /** what the source knows of the company; null when it does not know it */
  find(key: LookupKey, signal: AbortSignal): Promise<CompanyFacts | null>;
  /** suggestions for a name (or IČO) search; absent when the source cannot search */
  search?(key: SearchKey, signal: AbortSignal): Promise<CompanySuggestion[]>;
}
