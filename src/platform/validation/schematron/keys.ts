// Optimisation: absolute descendant scans (`//cac:X`, `//@name`) become key() lookups.
//
// The official rules evaluate ~150 expressions of the form `//cac:Something[...]` on the document
// node, and some match patterns do it per line (`//cac:TaxCategory[//cac:AccountingSupplierParty...]`),
// so every one walks the whole tree: O(rules x size), and O(lines^2) for the per-line ones. One
// xsl:key over all elements (and one over all attributes) is built in a single pass per document;
// each scan becomes a lookup. `key()` returns nodes in document order without duplicates, exactly
// like the path it replaces. A predicate right after the replaced step is kept only when it cannot
// be positional (`//a[1]` means "first a child of its parent", not "first a"): otherwise the
// expression is left as written.

export const ELEMENT_KEY = 'skv:elements';
const ATTRIBUTE_KEY = 'skv:attributes';

// Keyed by local name only: building the index is one pass per document, and a built `Q{ns}name`
// string per element doubled its cost. Each lookup adds `[namespace-uri() eq '...']` to be exact.
export const KEY_DECLARATIONS = [
  `<xsl:key name="${ELEMENT_KEY}" match="*" use="local-name()"/>`,
  `<xsl:key name="${ATTRIBUTE_KEY}" match="@*" use="local-name()"/>`,
];

const NAME = /^(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)/;
// Tokens after which `//` starts a new (absolute) path rather than continuing a relative one.
const OPERAND_START = /(^|[([,=<>!+|*-]|\b(?:and|or|return|satisfies|then|else|in|div|mod|idiv|eq|ne|lt|le|gt|ge|union|intersect|except|to))\s*$/;

/** End index of the bracketed predicate starting at `open` (which holds `[`), skipping literals. */
function closeBracket(expr: string, open: number): number {
  let depth = 0;
  for (let i = open; i < expr.length; i++) {
    const c = expr[i];
    if (c === '"' || c === "'") {
      const end = expr.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '[' || c === '(') depth++;
    else if ((c === ']' || c === ')') && --depth === 0) return i + 1;
  }
  return -1;
}

/** Top-level text of a predicate body with nested brackets and literals blanked out. */
function topLevel(body: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? '';
    if (c === '"' || c === "'") {
      const end = body.indexOf(c, i + 1);
      out += ' '.repeat((end < 0 ? body.length : end) - i + 1);
      i = end < 0 ? body.length : end;
      continue;
    }
    if (c === '(' || c === '[') depth++;
    if (c === ')' || c === ']') depth--;
    out += depth === 0 || c === '(' || c === ')' ? c : ' ';
  }
  return out;
}

/** True when the predicate is certainly boolean-valued, so it filters the same on any sequence. */
export function isNonPositional(body: string): boolean {
  if (/\b(position|last)\s*\(/.test(body)) return false;
  const top = topLevel(body).trim();
  if (/(!=|<=|>=|=|<|>)|\s(eq|ne|lt|le|gt|ge|and|or)\s/.test(top)) return true;
  if (/^(not|exists|empty|boolean|contains|starts-with|ends-with|matches)\s*\(\s*\)$/.test(top.replace(/\(.*\)/, '()'))) return true;
  // A relative path (node test first, no arithmetic) is an existence test.
  return /^(@|\.\.?\/|[A-Za-z_][\w.-]*:[A-Za-z_]|[A-Za-z_][\w.-]*\/)/.test(top) && !/[+*]|\s(div|mod|idiv)\s|\s-\s/.test(top) && !/^[\w.-]+:[\w.-]+\s*\(/.test(top);
}

/**
 * Rewrites `//prefix:name` (and `//@name`) at the start of an absolute path into a key() lookup.
 * `resolve` maps a prefix to its namespace URI; unknown prefixes leave the expression unchanged.
 */
export function rewriteDescendantScans(expr: string, resolve: (prefix: string) => string | undefined, minDepth = 0): string {
  let out = '';
  let i = 0;
  let depth = 0; // bracket depth: in match patterns only predicates (depth >= 1) are rewritten
  while (i < expr.length) {
    const c = expr[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    if (c === '"' || c === "'") {
      const end = expr.indexOf(c, i + 1);
      const stop = end < 0 ? expr.length : end + 1;
      out += expr.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '/' && expr[i + 1] === '/' && depth >= minDepth && OPERAND_START.test(out)) {
      const attr = expr[i + 2] === '@';
      const m = NAME.exec(expr.slice(i + 2 + (attr ? 1 : 0)));
      const after = i + 2 + (attr ? 1 : 0) + (m?.[0].length ?? 0);
      const next = expr.slice(after).trimStart();
      const uri = m ? (m[1] === undefined ? '' : resolve(m[1])) : undefined;
      // Not a plain name test (function call, axis, wildcard) or unknown prefix: leave it.
      if (m && uri !== undefined && !next.startsWith('(') && !next.startsWith('::') && !(attr && m[1] !== undefined)) {
        let end = after;
        let safe = true;
        while (expr[end] === '[') {
          const close = closeBracket(expr, end);
          if (close < 0 || !isNonPositional(expr.slice(end + 1, close - 1))) {
            safe = false;
            break;
          }
          end = close;
        }
        if (safe) {
          // The predicates stay in the output; the loop copies them (and tracks their depth) as usual.
          const local = m[2] ?? '';
          const exact = `[namespace-uri() eq '${uri}']`;
          out += `key('${attr ? ATTRIBUTE_KEY : ELEMENT_KEY}', '${local}')${exact}`;
          i = after;
          continue;
        }
      }
    }
    out += c;
    i++;
  }
  return out;
}
