import type { ValidationIssue } from '../../../schemas/common/errors.ts';
import type { LocRoot } from './issues.ts';

/**
 * What neither Postgres text nor XML 1.0 can carry: NUL and the other C0 controls but TAB, LF and
 * CR; U+FFFE and U+FFFF; and a surrogate that is not half of a pair (JSON can spell one, "\ud800").
 * Everything a request carries ends up in one or the other, so the platform refuses it at the door.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const FORBIDDEN_CHARACTER_TYPE = 'string_forbidden_character';

/** The first forbidden character of `s` and where it is, or undefined when `s` is fine. */
export function forbiddenCharacter(s: string): { character: string; position: number } | undefined {
  const m = FORBIDDEN.exec(s);
  if (!m) return undefined;
  const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return { character: `U+${code}`, position: m.index };
}

type Loc = (string | number)[];

function issue(loc: Loc, input: string, what: 'String' | 'Key', found: { character: string; position: number }): ValidationIssue {
  return {
    loc,
    msg: `${what} should not contain ${found.character}, which the database or XML cannot carry`,
    type: FORBIDDEN_CHARACTER_TYPE,
    input,
    ctx: { character: found.character, position: found.position },
  };
}

/**
 * Every string in `value` (object keys too, at any depth) holding a forbidden character, one
 * issue each, at most `max`. The body's depth is bounded before parsing, so recursion is safe.
 */
export function forbiddenTextIssues(root: LocRoot, value: unknown, max: number): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const walk = (v: unknown, loc: Loc): void => {
    if (out.length >= max) return;
    if (typeof v === 'string') {
      const found = forbiddenCharacter(v);
      if (found) out.push(issue(loc, v, 'String', found));
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...loc, i]));
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        const found = forbiddenCharacter(key);
        if (found && out.length < max) out.push(issue([...loc, key], key, 'Key', found));
        walk(item, [...loc, key]);
      }
    }
  };
  walk(value, [root]);
  return out;
}
