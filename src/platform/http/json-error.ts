import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * Where and why a JSON text is not valid JSON, for the 400 `malformed_json` answer. JSON.parse
 * stays the parser; this only explains its refusal, because V8's messages name a position for
 * some errors and not for others and their wording changes between Node versions. The position
 * comes from jsonc-parser (VS Code's JSON parser, error-tolerant and exact about offsets) with
 * comments and trailing commas refused, as JSON refuses them; the reason is ours.
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

// by jsonc-parser's error names (its codes are a const enum, which isolated modules cannot read)
const REASONS: Record<string, string> = {
  InvalidSymbol: 'expected a value (object, array, string, number, true, false or null)',
  InvalidNumberFormat: 'not a JSON number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":" after the property name',
  CommaExpected: 'expected "," between the entries',
  CloseBraceExpected: 'expected "}" to close the object',
  CloseBracketExpected: 'expected "]" to close the array',
  EndOfFileExpected: 'more after the end of the JSON value',
  InvalidCommentToken: 'JSON has no comments',
  UnexpectedEndOfComment: 'JSON has no comments',
  UnexpectedEndOfString: 'a string not closed by a double quote',
  UnexpectedEndOfNumber: 'a number cut short',
  InvalidUnicode: 'a \\u escape needs four hex digits',
  InvalidEscapeCharacter: 'an escape JSON does not have (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)',
  InvalidCharacter: 'a control character inside a string: escape it (\\n, \\t, \\u0000)',
};

const IN_STRING = new Set(['UnexpectedEndOfString', 'InvalidUnicode', 'InvalidEscapeCharacter', 'InvalidCharacter']);
const IN_NUMBER = new Set(['InvalidNumberFormat', 'UnexpectedEndOfNumber']);

/** What the first error means here, in words a caller can act on. */
function reasonOf(text: string, error: ParseError): string {
  const at = text[error.offset];
  const before = text.slice(0, error.offset).trimEnd().at(-1);
  if (before === ',' && (at === ']' || at === '}')) return `a comma before "${at}": remove the trailing comma`;
  if (at === '\'') return 'strings take double quotes, not single quotes';
  const name = printParseErrorCode(error.error);
  const reason = REASONS[name] ?? 'not valid JSON';
  // jsonc-parser places a bad string or number at its start: say so rather than blame its first character
  if (IN_STRING.has(name)) return `the string starting here: ${reason}`;
  if (IN_NUMBER.has(name)) return `the number starting here: ${reason}`;
  if (at === undefined) return `unexpected end of the body: ${reason}`;
  const shown = at.charCodeAt(0) < 0x20 ? `U+${at.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : JSON.stringify(at);
  return `unexpected character ${shown}: ${reason}`;
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
 * The first syntax error of a text JSON.parse refused. Should jsonc-parser find none (it would
 * take what JSON.parse takes), the end of the text is named.
 */
export function locateJsonError(text: string): JsonSyntaxError {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return { offset: text.length, ...position(text, text.length), reason: 'not valid JSON' };
  return { offset: first.offset, ...position(text, first.offset), reason: reasonOf(text, first) };
}
