// XPath regular expressions (fn:matches, fn:replace, fn:tokenize) -> JavaScript RegExp, the way
// SaxonJS 2.7 evaluates them: with the `u` flag, `.` as JavaScript's `.` (not \n, \r, U+2028,
// U+2029), `\s` as JavaScript's `\s` (SaxonJS lets it match NBSP and other Unicode spaces) and `\d` as
// `\p{Nd}`. The `i` flag is JavaScript's `i` beside `u`, as SaxonJS passes it on (the MLS Schematron
// uses it). Everything else the translator is not sure about is refused: other flags, `\w`, `\i`, `\c`,
// block escapes (`\p{IsBasicLatin}`), character class subtraction, back-references. Syntax errors
// XPath defines (`{,2}`, a lone `}`) raise FORX0002.
import { Refusal, XPathError } from './values.ts';

const CATEGORIES = new Set([
  'L', 'Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'M', 'Mn', 'Mc', 'Me', 'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Ps', 'Pe', 'Pi', 'Pf', 'Po',
  'Z', 'Zs', 'Zl', 'Zp', 'S', 'Sm', 'Sc', 'Sk', 'So', 'C', 'Cc', 'Cf', 'Co', 'Cn',
]);

const SINGLE_ESCAPES: Record<string, string> = {
  n: '\\n',
  r: '\\r',
  t: '\\t',
  '\\': '\\\\',
  '|': '\\|',
  '.': '\\.',
  '?': '\\?',
  '*': '\\*',
  '+': '\\+',
  '(': '\\(',
  ')': '\\)',
  '{': '\\{',
  '}': '\\}',
  '[': '\\[',
  ']': '\\]',
  '^': '\\^',
  $: '\\$',
};

function bad(pattern: string, why: string): never {
  throw new XPathError('FORX0002', `Invalid XPath regular expression ${JSON.stringify(pattern)}: ${why}`);
}

class Translator {
  private i = 0;
  constructor(private readonly p: string) {}

  translate(): string {
    const out = this.regExp();
    if (this.i < this.p.length) bad(this.p, `unexpected ${this.p[this.i] ?? ''}`);
    return out;
  }

  private peek(): string {
    return this.p[this.i] ?? '';
  }

  private regExp(): string {
    let out = this.branch();
    while (this.peek() === '|') {
      this.i++;
      out += `|${this.branch()}`;
    }
    return out;
  }

  private branch(): string {
    let out = '';
    while (this.i < this.p.length && this.peek() !== '|' && this.peek() !== ')') {
      out += this.piece();
    }
    return out;
  }

  private piece(): string {
    const atom = this.atom();
    const q = this.quantifier();
    if (q !== '' && (atom === '^' || atom === '$')) bad(this.p, 'quantified anchor');
    return atom + q;
  }

  private quantifier(): string {
    const c = this.peek();
    let q: string;
    if (c === '?' || c === '*' || c === '+') {
      this.i++;
      q = c;
    } else if (c === '{') {
      const m = /^\{([0-9]+)(,([0-9]*))?\}/.exec(this.p.slice(this.i));
      if (!m) bad(this.p, 'invalid quantifier');
      if (m[3] !== undefined && m[3] !== '' && Number(m[3]) < Number(m[1])) bad(this.p, 'quantifier range');
      this.i += m[0].length;
      q = m[0];
    } else return '';
    if (this.peek() === '?') {
      this.i++;
      q += '?';
    }
    return q;
  }

  private atom(): string {
    const c = this.peek();
    this.i++;
    switch (c) {
      case '(': {
        let open = '(';
        if (this.peek() === '?') {
          if (this.p[this.i + 1] !== ':') throw new Refusal(`regex group (?${this.p[this.i + 1] ?? ''}`);
          this.i += 2;
          open = '(?:';
        }
        const inner = this.regExp();
        if (this.peek() !== ')') bad(this.p, 'unclosed group');
        this.i++;
        return `${open}${inner})`;
      }
      case '[':
        return this.charClass();
      case '\\':
        return this.escape(false);
      case '.':
        return '.';
      case '^':
      case '$':
        return c;
      case '?':
      case '*':
      case '+':
      case '{':
      case '}':
      case ']':
      case ')':
        return bad(this.p, `unexpected ${c}`);
      default: {
        const cp = this.p.codePointAt(this.i - 1) ?? 0;
        if (cp > 0xffff) this.i++;
        return String.fromCodePoint(cp).replace(/[/]/g, '\\/');
      }
    }
  }

  private escape(inClass: boolean): string {
    const c = this.peek();
    this.i++;
    if (c === '') bad(this.p, 'trailing backslash');
    if (c === '-') return inClass ? '\\-' : '-';
    const single = SINGLE_ESCAPES[c];
    if (single !== undefined) return single;
    if (c === 's') return '\\s';
    if (c === 'S') return '\\S';
    if (c === 'd') return '\\p{Nd}';
    if (c === 'D') return '\\P{Nd}';
    if (c === 'p' || c === 'P') {
      const m = /^\{([A-Za-z0-9-]+)\}/.exec(this.p.slice(this.i));
      if (!m) bad(this.p, 'invalid \\p escape');
      const name = m[1] ?? '';
      if (!CATEGORIES.has(name)) throw new Refusal(`regex category ${name}`);
      this.i += m[0].length;
      return `\\${c}{${name}}`;
    }
    if (/[0-9]/.test(c)) throw new Refusal('regex back-reference');
    if ('wWiIcC'.includes(c)) throw new Refusal(`regex escape \\${c}`);
    return bad(this.p, `invalid escape \\${c}`);
  }

  /** After `[`: a positive or negative class, without subtraction. */
  private charClass(): string {
    let out = '[';
    if (this.peek() === '^') {
      this.i++;
      out += '^';
    }
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === '') bad(this.p, 'unclosed character class');
      if (c === ']' && !first) {
        this.i++;
        return `${out}]`;
      }
      if (c === '[') bad(this.p, '[ in a character class');
      if (c === '-' && this.p[this.i + 1] === '[') throw new Refusal('character class subtraction');
      out += this.classAtomOrRange();
      first = false;
    }
  }

  private classChar(): { js: string; cp: number | null } {
    const c = this.peek();
    if (c === '\\') {
      this.i++;
      const e = this.escape(true);
      const single = /^\\([nrt])$/.exec(e);
      if (single) return { js: e, cp: { n: 10, r: 13, t: 9 }[single[1] as 'n' | 'r' | 't'] };
      if (/^\\[\\|.?*+(){}[\]^$-]$/.test(e)) return { js: e, cp: e.codePointAt(1) ?? null };
      return { js: e, cp: null }; // a multi-character escape
    }
    const cp = this.p.codePointAt(this.i) ?? 0;
    this.i += cp > 0xffff ? 2 : 1;
    const ch = String.fromCodePoint(cp);
    return { js: ch === '^' || ch === '/' ? `\\${ch}` : ch, cp };
  }

  private classAtomOrRange(): string {
    const from = this.classChar();
    if (this.peek() === '-' && this.p[this.i + 1] !== ']' && this.p[this.i + 1] !== '[') {
      this.i++;
      const to = this.classChar();
      if (from.cp === null || to.cp === null) bad(this.p, 'range with a class escape');
      if (to.cp < from.cp) bad(this.p, 'reversed range');
      return `${from.js}-${to.js}`;
    }
    if (from.js === '-') return '\\-';
    return from.js;
  }
}

const cache = new Map<string, RegExp>();

/** Whether the compiled engine takes these XPath regex flags: none, or `i` (case-insensitive). */
export function supportedRegexFlags(flags: string): boolean {
  return flags === '' || flags === 'i';
}

/** The JavaScript RegExp for an XPath pattern (flags: none or `i`), cached. */
export function xpathRegex(pattern: string, flags = ''): RegExp {
  if (!supportedRegexFlags(flags)) throw new Refusal(`regex flags ${flags}`);
  const key = `${flags}/${pattern}`;
  let re = cache.get(key);
  if (!re) {
    const source = new Translator(pattern).translate();
    try {
      re = new RegExp(source, `${flags}u`);
    } catch (err) {
      bad(pattern, err instanceof Error ? err.message : String(err));
    }
    cache.set(key, re);
  }
  return re;
}

/** Global variant for replace/tokenize; refuses patterns that match the empty string (FORX0003). */
export function xpathRegexGlobal(pattern: string, flags = ''): RegExp {
  const re = xpathRegex(pattern, flags);
  if (re.test('')) throw new XPathError('FORX0003', 'Regular expression matches zero-length string');
  return new RegExp(re.source, `g${re.flags}`);
}

/** fn:replace's replacement string: `$N` groups, `\$` and `\\`. */
export function replacementFunction(replacement: string, groups: number): (match: string, captures: (string | undefined)[]) => string {
  const parts: (string | number)[] = [];
  let lit = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i];
    if (c === '\\') {
      const n = replacement[i + 1];
      if (n !== '\\' && n !== '$') throw new XPathError('FORX0004', 'Invalid replacement string');
      lit += n;
      i++;
    } else if (c === '$') {
      let j = i + 1;
      if (!/[0-9]/.test(replacement[j] ?? '')) throw new XPathError('FORX0004', 'Invalid replacement string');
      // the longest digit sequence that names an existing group, at least one digit
      let num = Number(replacement[j]);
      j++;
      while (/[0-9]/.test(replacement[j] ?? '') && num * 10 + Number(replacement[j]) <= groups) {
        num = num * 10 + Number(replacement[j]);
        j++;
      }
      if (lit !== '') parts.push(lit);
      lit = '';
      parts.push(num);
      i = j - 1;
    } else lit += c;
  }
  if (lit !== '') parts.push(lit);
  return (match, captures) => parts.map((p) => (typeof p === 'string' ? p : p === 0 ? match : (captures[p - 1] ?? ''))).join('');
}
