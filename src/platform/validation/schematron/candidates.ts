// Optimisation: visit only the elements a pattern's rules can match.
//
// The literal translation walks the whole tree once per pattern (13 walks for Peppol), and each step
// of a walk is a template dispatch in SaxonJS. When every rule context of a pattern ends in a named
// element test, the nodes it can match are exactly the elements with those names, so the pattern
// applies its templates to key() lookups of those names instead (document order, each node once, the
// same first-matching-rule dispatch). Patterns with wildcards or attribute/text contexts keep the walk.

/** Splits on `sep` at nesting depth 0, outside string literals. */
function splitTopLevel(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"' || c === "'") {
      const end = s.indexOf(c, i + 1);
      i = end < 0 ? s.length : end;
    } else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      parts.push(s.slice(start, i));
      start = i + sep.length;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

/** Removes trailing predicates: `a/b[x][y]` -> `a/b`. Null when brackets do not balance. */
function stripPredicates(step: string): string | null {
  let s = step.trim();
  while (s.endsWith(']')) {
    let depth = 0;
    let i = s.length - 1;
    for (; i >= 0; i--) {
      const c = s[i];
      if (c === ']') depth++;
      else if (c === '[' && --depth === 0) break;
    }
    if (i < 0) return null;
    s = s.slice(0, i).trimEnd();
  }
  return s;
}

const QNAME = /^(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)$/;

/**
 * Expanded names (`Q{uri}local`) of the elements a match pattern can match, or null when it may match
 * anything else (wildcards, attributes, text, the document node, functions).
 */
export function candidateNames(pattern: string, resolve: (prefix: string) => string | undefined): string[] | null {
  const names: string[] = [];
  for (const alternative of splitTopLevel(pattern, '|')) {
    const path = stripPredicates(alternative);
    if (path === null || path === '') return null;
    if (path.startsWith('(') && path.endsWith(')')) {
      const inner = candidateNames(path.slice(1, -1), resolve);
      if (inner === null) return null;
      names.push(...inner);
      continue;
    }
    const steps = splitTopLevel(path, '/');
    const last = stripPredicates(steps[steps.length - 1] ?? '');
    const m = last === null ? null : QNAME.exec(last.replace(/^child::/, ''));
    if (!m) return null;
    const uri = m[1] === undefined ? '' : resolve(m[1]);
    if (uri === undefined) return null;
    names.push(`Q{${uri}}${m[2] ?? ''}`);
  }
  return [...new Set(names)];
}
