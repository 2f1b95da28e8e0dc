// SaxonJS computes xs:integer/xs:decimal arithmetic on huge values in floating point, so
// `xs:integer($iban-digits) mod 97` (IBAN checks such as DE-R-019) gives wrong answers. The compiler
// rewrites every `xs:integer(X) mod 97` / `xs:decimal(X) mod 97` into a digit-string remainder that is
// exact; anything that is not a plain digit string falls back to the original expression, so errors and
// empty sequences behave as before.

const MOD97_FUNCTION = 'skv:mod97';

/** XSLT declaration of the exact remainder; 15 digits always fit in a double exactly. */
export const MOD97_DECLARATION = `<xsl:function name="${MOD97_FUNCTION}" as="xs:integer">
    <xsl:param name="digits" as="xs:string"/>
    <xsl:sequence select="if (string-length($digits) le 15) then xs:integer($digits) mod 97
      else ${MOD97_FUNCTION}(concat(string(xs:integer(substring($digits, 1, 15)) mod 97), substring($digits, 16)))"/>
  </xsl:function>`;

/** Index just after the parenthesis that closes the one opened at `open`, skipping string literals. */
function closeParen(expr: string, open: number): number {
  let depth = 0;
  for (let i = open; i < expr.length; i++) {
    const c = expr[i];
    if (c === '"' || c === "'") {
      const end = expr.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Rewrites big-integer `mod 97` expressions; returns the expression unchanged when there are none. */
export function rewriteMod97(expr: string): string {
  const cast = /xs:(integer|decimal)\s*\(/g;
  let out = '';
  let last = 0;
  for (let m = cast.exec(expr); m; m = cast.exec(expr)) {
    const open = m.index + m[0].length - 1;
    const close = closeParen(expr, open);
    if (close < 0) break;
    const tail = /^\s*mod\s+97(?![0-9])/.exec(expr.slice(close));
    // `a * xs:integer(x) mod 97` means `(a * x) mod 97`: leave operands of a multiplicative chain alone.
    const before = expr.slice(0, m.index).trimEnd();
    if (!tail || /(\*|\bdiv|\bidiv|\bmod)$/.test(before)) continue;
    const arg = expr.slice(open + 1, close - 1);
    const v = `skv_m${m.index}`; // unique within the expression, deterministic for the cache key
    out += expr.slice(last, m.index);
    out +=
      `(let $${v} := (${arg}) return if (count($${v}) eq 1 and matches(string($${v}), '^\\s*\\+?[0-9]+\\s*$')) ` +
      `then ${MOD97_FUNCTION}(replace(normalize-space(string($${v})), '^\\+', '')) else xs:${m[1]}($${v}) mod 97)`;
    last = close + tail[0].length;
    cast.lastIndex = last;
  }
  return last === 0 ? expr : out + expr.slice(last);
}
