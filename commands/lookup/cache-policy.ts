/**
 * How long an answer may be served from the cache. Register data changes rarely, so a complete
 * answer is kept for the configured TTL. An answer made while a source was down is kept only a
 * minute, so the source's part comes back soon after it does; a "not found" ten minutes at most, so
 * a company registered today is found soon; a name search's suggestions ten minutes too. A refusal because every source was down is never
 * kept. A TTL of 0 turns the cache off.
 */
type CachedKind = 'complete' | 'partial' | 'not_found' | 'search';

const PARTIAL_TTL_MS = 60_000;
const NOT_FOUND_TTL_MS = 10 * 60_000;

export function cacheTtlMs(kind: CachedKind, configuredMs: number): number {
  if (kind === 'partial') return Math.min(PARTIAL_TTL_MS, configuredMs);
  if (kind === 'not_found' || kind === 'search') return Math.min(NOT_FOUND_TTL_MS, configuredMs);
  return configuredMs;
}
