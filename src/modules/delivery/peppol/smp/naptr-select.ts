/**
 * Picks the SMP URL out of the NAPTR records the SML publishes for a participant (BDXL 1.0 over
 * U-NAPTR, RFC 4848): service `Meta:SMP`, flag `U`, lowest order then preference, and a regexp
 * `!^.*$!https://smp.example.com!` that replaces the whole name by the SMP's URL.
 *
 * The regexp comes from DNS, so it is not run as a regular expression: U-NAPTR only permits one that
 * replaces the whole input by a constant URI (no back-references), which is all the SML writes. Any
 * other form is refused rather than interpreted (POSIX ERE is not JavaScript's syntax, and a
 * hostile pattern could be made to backtrack forever).
 */

export const SMP_NAPTR_SERVICE = 'Meta:SMP';

/** One NAPTR record as node:dns returns it. */
export interface NaptrRecord {
  flags: string;
  service: string;
  regexp: string;
  replacement: string;
  order: number;
  preference: number;
}

type SmpUrlChoice =
  | { kind: 'none' } // no Meta:SMP U-record: the SML does not know the participant
  | { kind: 'found'; url: string }
  | { kind: 'unusable'; reason: string }; // Meta:SMP records, but none we can turn into a URL

export function chooseSmpUrl(records: readonly NaptrRecord[]): SmpUrlChoice {
  const candidates = records
    .filter((r) => r.flags.toUpperCase() === 'U' && r.service.toLowerCase() === SMP_NAPTR_SERVICE.toLowerCase())
    .sort((a, b) => a.order - b.order || a.preference - b.preference);
  if (candidates.length === 0) return { kind: 'none' };
  const reasons: string[] = [];
  for (const record of candidates) {
    const applied = applyUnaptrRegexp(record.regexp);
    if (applied.ok) return { kind: 'found', url: applied.url };
    reasons.push(applied.reason);
  }
  return { kind: 'unusable', reason: reasons.join('; ') };
}

type Applied = { ok: true; url: string } | { ok: false; reason: string };

/** `<delim><ere><delim><uri><delim><flags>` with ere `^.*$` or `.*` and flags empty or `i`. */
export function applyUnaptrRegexp(regexp: string): Applied {
  const delimiter = regexp.charAt(0);
  // RFC 3402: the delimiter is any character but a digit, backslash or flag letter
  if (delimiter === '' || /[0-9\\a-zA-Z]/.test(delimiter)) return { ok: false, reason: `NAPTR regexp "${regexp}" has no delimiter` };
  const parts = regexp.slice(1).split(delimiter);
  if (parts.length !== 3) return { ok: false, reason: `NAPTR regexp "${regexp}" is not !ere!replacement!flags` };
  const [ere, replacement, flags] = parts as [string, string, string];
  if (ere !== '^.*$' && ere !== '.*') return { ok: false, reason: `NAPTR regexp "${regexp}" does not replace the whole name (U-NAPTR)` };
  if (flags !== '' && flags !== 'i') return { ok: false, reason: `NAPTR regexp "${regexp}" has unknown flags` };
  if (/\\\d/.test(replacement)) return { ok: false, reason: `NAPTR regexp "${regexp}" uses a back-reference (not U-NAPTR)` };
  let url: URL;
  try {
    url = new URL(replacement);
  } catch {
    return { ok: false, reason: `NAPTR regexp "${regexp}" does not give a URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `NAPTR regexp "${regexp}" gives a ${url.protocol} URL, not http(s)` };
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return { ok: false, reason: `NAPTR regexp "${regexp}" gives a URL with credentials, query or fragment` };
  }
  return { ok: true, url: replacement };
}
