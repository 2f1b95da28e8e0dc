import type { Logger } from 'pino';
import { cacheTtlMs } from '../../../../commands/lookup/cache-policy.ts';
import { icoInQuery, lookupIco } from '../../../../commands/lookup/ico.ts';
import { dicFrom, mergeLookup, type CompanyLookup } from '../../../../commands/lookup/merge.ts';
import { mergeSearch, type CompanySuggestion, type SearchOutcome } from '../../../../commands/lookup/search.ts';
import { foldText, searchQuery } from '../../../../commands/lookup/text.ts';
import { NotFound } from '../../../../commands/shared/access.ts';
import { DomainError } from '../../../../commands/shared/domain-error.ts';
import type { CompanyFacts, SourceName, SourceOutcome } from '../../../../commands/lookup/sources.ts';
import type { Clock } from '../../../platform/ports/clock.ts';
import type { CompanyRegistry, LookupKey } from './port.ts';
import { TtlCache } from '../../../platform/ttl-cache.ts';

interface CompanyLookupDeps {
  registries: readonly CompanyRegistry[];
  clock: Clock;
  log: Logger;
  timeoutsMs: Record<SourceName, number>;
  cacheTtlMs: number;
  cacheMaxEntries: number;
}

/** Company lookup by IČO and search by name, over the registries (docs/lookup.md). */
export interface CompanyLookupService {
  /** 422 for an IČO that cannot exist, 404 `company_not_found`, 502 `company_registry_unavailable` */
  byIco(ico: string): Promise<CompanyLookup>;
  /** the text as searched and its suggestions; 422 for a text too short or long; 502 when every searching source is down */
  search(q: string, limit: number): Promise<{ query: string; results: CompanySuggestion[] }>;
}

type Cached = { kind: 'answer'; answer: CompanyLookup } | { kind: 'refusal'; error: DomainError } | { kind: 'suggestions'; results: CompanySuggestion[] };

class TimedOut extends Error {}

/**
 * Asks the sources in two rounds: those that know companies by IČO (RPO, RegisterUZ) at once, then
 * those that need the DIČ one of them gave (VIES). Each source has its own time limit; one that
 * fails or is late is left out (a partial answer), never waited for past its limit. Answers are
 * cached (commands/lookup/cache-policy.ts) and a question already being asked is not asked twice.
 */
export function companyLookupService(deps: CompanyLookupDeps): CompanyLookupService {
  const cache = new TtlCache<Cached>(deps.clock, deps.cacheMaxEntries);
  const inFlight = new Map<string, Promise<Cached>>();
  const today = () => deps.clock.now().toISOString().slice(0, 10);

  /** Runs one source's call within its time limit; the signal aborts its HTTP request when the limit passes. */
  async function timed<T>(registry: CompanyRegistry, call: (signal: AbortSignal) => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; reason: string }> {
    const limit = deps.timeoutsMs[registry.source];
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new TimedOut(`no answer within ${limit} ms`));
      }, limit);
    });
    try {
      return { ok: true, value: await Promise.race([call(controller.signal), late]) };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      deps.log.warn({ source: registry.source, reason }, 'company register did not answer: going on without it');
      return { ok: false, reason };
    } finally {
      clearTimeout(timer);
    }
  }

  async function ask(registry: CompanyRegistry, key: LookupKey): Promise<SourceOutcome> {
    const answer = await timed<CompanyFacts | null>(registry, (signal) => registry.find(key, signal));
    if (!answer.ok) return { source: registry.source, status: 'unavailable', reason: answer.reason };
    return answer.value === null ? { source: registry.source, status: 'not_found' } : { source: registry.source, status: 'found', facts: answer.value };
  }

  async function lookUp(ico: string): Promise<Cached> {
    const key: LookupKey = { ico, dic: null, today: today() };
    const first = await Promise.all(deps.registries.filter((r) => !r.needsDic).map((r) => ask(r, key)));
    const dic = first.some((o) => o.status === 'found') ? dicFrom(first) : null;
    const second = await Promise.all(deps.registries.filter((r) => r.needsDic).map((r): Promise<SourceOutcome> =>
      dic === null ? Promise.resolve({ source: r.source, status: 'not_asked' }) : ask(r, { ...key, dic })));
    try {
      const merged = mergeLookup(ico, [...first, ...second]);
      const result: Cached = { kind: 'answer', answer: merged.answer };
      cache.set(`ico:${ico}`, result, cacheTtlMs(merged.complete ? 'complete' : 'partial', deps.cacheTtlMs));
      return result;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const result: Cached = { kind: 'refusal', error };
      // a not-found is kept a while; "every register is down" is never kept
      if (error instanceof NotFound) cache.set(`ico:${ico}`, result, cacheTtlMs('not_found', deps.cacheTtlMs));
      return result;
    }
  }

  async function searchAll(text: string, limit: number, cacheKey: string): Promise<Cached> {
    const key = { text, ico: icoInQuery(text), today: today() };
    const outcomes = await Promise.all(deps.registries.filter((r) => r.search).map(async (r): Promise<SearchOutcome> => {
      const answer = await timed(r, (signal) => r.search?.(key, signal) ?? Promise.resolve([]));
      return answer.ok ? { source: r.source, status: 'found', results: answer.value } : { source: r.source, status: 'unavailable', reason: answer.reason };
    }));
    const merged = mergeSearch(outcomes, limit);
    const result: Cached = { kind: 'suggestions', results: merged.results };
    cache.set(cacheKey, result, cacheTtlMs(merged.complete ? 'search' : 'partial', deps.cacheTtlMs));
    return result;
  }

  /** The cached answer, the one being asked already, or a new question. */
  async function once(key: string, make: () => Promise<Cached>): Promise<Cached> {
    const hit = cache.get(key);
    if (hit) return hit;
    const pending = inFlight.get(key);
    if (pending) return pending;
    const asking = make().finally(() => inFlight.delete(key));
    inFlight.set(key, asking);
    return asking;
  }

  return {
    async byIco(raw) {
      const ico = lookupIco(raw);
      const result = await once(`ico:${ico}`, () => lookUp(ico));
      if (result.kind === 'refusal') throw result.error;
      if (result.kind !== 'answer') throw new Error('a lookup answered with suggestions');
      return result.answer;
    },
    async search(q, limit) {
      const text = searchQuery(q);
      const cacheKey = `q:${limit}:${foldText(text)}`;
      const result = await once(cacheKey, () => searchAll(text, limit, cacheKey));
      if (result.kind !== 'suggestions') throw new Error('a search answered with a lookup');
      return { query: text, results: result.results };
    },
  };
}
