/**
 * Where and why a JSON text is not valid JSON, for the 400 `malformed_json` answer. JSON.parse
 * stays the parser; this only explains its refusal, because V8's messages name a position for
 * some errors and not for others ("Unexpected token 'x', "…" is not valid JSON" echoes the text
 * instead), and their wording changes between Node versions. It walks RFC 8259's grammar without
 * building any value and stops at the first thing the grammar does not allow.
 */
export interface JsonSyntaxError {
  /** 0-based, in characters (UTF-16 code units) of the decoded body */
  offset: number;
  /** 1-based */
  line: number;
  /** 1-based, in characters from the start of the line */
  column: number;
  reason: string;
}

class Stop extends Error {
  constructor(readonly at: number, readonly reason: string) {
    super(reason);
  }
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

const shown = (c: string) => (c.charCodeAt(0) < 0x20 ? `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : JSON.stringify(c));

function scan(text: string): void {
  let i = 0;
  const skip = () => {
    while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  };
  const unexpected = (expected: string): never => {
    if (i >= text.length) throw new Stop(i, `unexpected end of the body: expected ${expected}`);
    throw new Stop(i, `unexpected character ${shown(text[i]!)}: expected ${expected}`);
  };
  const string = () => {
    const open = i++;
    for (;;) {
      if (i >= text.length) throw new Stop(open, 'a string is not closed by a double quote');
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c.charCodeAt(0) < 0x20) throw new Stop(i, `control character ${shown(c)} inside a string: escape it (\\n, \\t, \\u00XX)`);
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          HEX4.lastIndex = i + 2;
          if (!HEX4.test(text)) throw new Stop(i, 'a \\u escape needs four hexadecimal digits');
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) i += 2;
        else throw new Stop(i, `invalid escape \\${e ?? ''} inside a string`);
      } else i++;
    }
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else unexpected('a value (object, array, string, number, true, false or null)');
  };
  const value = (): void => {
    skip();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) throw new Stop(i, 'not a valid number');
      i = NUMBER.lastIndex;
      return;
    }
    if (c === "'") throw new Stop(i, 'strings take double quotes, not single quotes');
    unexpected('a value (object, array, string, number, true, false or null)');
  };
  const object = () => {
    i++;
    skip();
    if (text[i] === '}') return void i++;
    for (;;) {
      skip();
      if (text[i] !== '"') unexpected('a key in double quotes');
      string();
      skip();
      if (text[i] !== ':') unexpected('":" after the key');
      i++;
      value();
      skip();
      if (text[i] === ',') {
        i++;
        skip();
        if (text[i] === '}') throw new Stop(i, 'a comma before "}": remove the trailing comma');
        continue;
      }
      if (text[i] === '}') return void i++;
      unexpected('"," or "}" after a member of an object');
    }
  };
  const array = () => {
    i++;
    skip();
    if (text[i] === ']') return void i++;
    for (;;) {
      value();
      skip();
      if (text[i] === ',') {
        i++;
        skip();
        if (text[i] === ']') throw new Stop(i, 'a comma before "]": remove the trailing comma');
        continue;
      }
      if (text[i] === ']') return void i++;
      unexpected('"," or "]" after an element of an array');
    }
  };
  value();
  skip();
  if (i < text.length) throw new Stop(i, `unexpected character ${shown(text[i]!)} after the end of the JSON value`);
}

/** Line and column (1-based) of a 0-based offset; \n, \r\n and \r each end a line. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/**
 * The first syntax error of a text JSON.parse refused. Should the walk find none (it follows the
 * same grammar, so only a body JSON.parse took would), the end of the text is named.
 */
export function locateJsonError(text: string): JsonSyntaxError {
  try {
    scan(text);
    return { offset: text.length, ...position(text, text.length), reason: 'not valid JSON' };
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    return { offset: err.at, ...position(text, err.at), reason: err.reason };
  }
}
