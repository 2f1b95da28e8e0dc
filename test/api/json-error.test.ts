import { expect } from 'chai';
import { locateJsonError } from '../../src/platform/http/json-error.ts';

/** Every text here is one JSON.parse refuses; the answer says where (1-based line and column) and why. */
describe('locateJsonError: where and why a body is not JSON', () => {
  const cases: [string, { line: number; column: number; offset: number; reason: string }][] = [
    ['{"a": 1,}', { line: 1, column: 9, offset: 8, reason: 'a comma before "}": remove the trailing comma' }],
    ['{"a":\r\n \'b\'}', { line: 2, column: 2, offset: 8, reason: 'strings take double quotes, not single quotes' }],
    ['// note\n{}', { line: 1, column: 1, offset: 0, reason: 'unexpected character "/": JSON has no comments' }],
    ['{"a": "x\ty"}', { line: 1, column: 7, offset: 6, reason: 'the string starting here: a control character inside a string: escape it (\\n, \\t, \\u0000)' }],
    ['01', { line: 1, column: 2, offset: 1, reason: 'unexpected character "1": more after the end of the JSON value' }],
    ['[1 2]', { line: 1, column: 4, offset: 3, reason: 'unexpected character "2": expected "," between the entries' }],
    ['{"a":', { line: 1, column: 6, offset: 5, reason: 'unexpected end of the body: expected a value' }],
    ['', { line: 1, column: 1, offset: 0, reason: 'unexpected end of the body: expected a value' }],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)}: line ${expected.line}, column ${expected.column}`, () => {
      expect(() => JSON.parse(text)).to.throw(SyntaxError);
      expect(locateJsonError(text)).to.deep.equal(expected);
    });
  }
});
