import type { ValidationIssue } from '../../../schemas/common/errors.ts';

/** At most this many entries in one 422; a last `too_many_errors` entry counts the rest. */
export const MAX_ISSUES = 50;
/** Longer strings in `input` and `loc` are cut to this many characters and end with '…'. */
export const MAX_ECHOED_STRING = 100;
/** Containers in `input` show at most this many entries, this many levels deep. */
export const MAX_ECHOED_ENTRIES = 10;
export const MAX_ECHOED_DEPTH = 3;
/** Characters of strings and keys one `input` may echo in all; beyond it entries are counted, not shown. */
const ECHO_BUDGET = 1000;

function cut(s: string): string {
  if (s.length <= MAX_ECHOED_STRING) return s;
  const head = s.slice(0, MAX_ECHOED_STRING);
  // never leave half a surrogate pair at the cut
  return `${/[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head}…`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * A summary of `value` small enough to echo: the request's value as sent when it is small, else
 * strings cut, long lists and objects shortened and deep ones replaced by a count.
 */
export function boundedInput(value: unknown): unknown {
  let budget = ECHO_BUDGET;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const s = cut(v);
      budget -= s.length;
      return s;
    }
    if (v === null || typeof v !== 'object') {
      budget -= 8;
      return v;
    }
    if (Array.isArray(v)) {
      if (depth >= MAX_ECHOED_DEPTH) return `[… ${plural(v.length, 'item')}]`;
      const out: unknown[] = [];
      for (const item of v) {
        if (out.length >= MAX_ECHOED_ENTRIES || budget <= 0) break;
        out.push(walk(item, depth + 1));
      }
      if (out.length < v.length) out.push(`… ${v.length - out.length} more`);
      return out;
    }
    const entries = Object.entries(v);
    if (depth >= MAX_ECHOED_DEPTH) return `{… ${plural(entries.length, 'key')}}`;
    const out: Record<string, unknown> = {};
    let shown = 0;
    for (const [key, item] of entries) {
      if (shown >= MAX_ECHOED_ENTRIES || budget <= 0) break;
      const k = cut(key);
      budget -= k.length;
      // defineProperty: a "__proto__" key stays a plain key of the echo
      Object.defineProperty(out, k, { value: walk(item, depth + 1), enumerable: true, writable: true, configurable: true });
      shown++;
    }
    if (shown < entries.length) out['…'] = `${entries.length - shown} more`;
    return out;
  };
  return walk(value, 0);
}

/**
 * What a 422 may carry: at most MAX_ISSUES entries, each with a bounded `input` and `loc` keys
 * cut, so no request, however large or deep, makes a large or deep answer.
 */
export function boundIssues<T extends { loc: (string | number)[]; input?: unknown }>(issues: readonly T[]): (T | ValidationIssue)[] {
  const bounded = issues.slice(0, MAX_ISSUES).map((i) => ({
    ...i,
    loc: i.loc.map((part) => (typeof part === 'string' ? cut(part) : part)),
    ...('input' in i ? { input: boundedInput(i.input) } : {}),
  }));
  const rest = issues.slice(MAX_ISSUES);
  if (rest.length === 0) return bounded;
  const root = rest[0]?.loc[0] ?? 'body';
  const more: ValidationIssue = {
    loc: [root], msg: `${plural(rest.length, 'more problem')} not shown`, type: 'too_many_errors', input: null,
    ctx: { shown: MAX_ISSUES, total: issues.length },
  };
  return [...bounded, more];
}
