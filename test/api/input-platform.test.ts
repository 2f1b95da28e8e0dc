import { expect } from 'chai';
import { isIsoDate } from '../../schemas/common/date.ts';
import { nestingExceeds } from '../../src/platform/http/body.ts';
import { boundIssues, boundedInput, MAX_ISSUES } from '../../src/platform/http/bounded-issues.ts';
import { forbiddenCharacter, forbiddenTextIssues } from '../../src/platform/http/text.ts';

describe('platform input rules', () => {
  describe('nestingExceeds (the depth scan before JSON.parse)', () => {
    const scan = (s: string, max = 3) => nestingExceeds(Buffer.from(s, 'utf8'), max);
    it('counts arrays and objects, and only up to the limit', () => {
      expect(scan('[[[]]]')).to.equal(false);
      expect(scan('[[[[]]]]')).to.equal(true);
      expect(scan('{"a":{"b":[1]}}')).to.equal(false);
      expect(scan('{"a":{"b":[{}]}}')).to.equal(true);
      expect(scan('[[],[],[],[[]]]')).to.equal(false);
    });
    it('ignores brackets inside strings, escaped quotes included', () => {
      expect(scan('["[[[[[[", "{{{{{{"]')).to.equal(false);
      expect(scan('["\\"[[[[[[\\\\", "x"]')).to.equal(false);
      expect(scan('["\\\\", [[[[]]]]]')).to.equal(true);
      expect(scan('{"ľščťž[[[[": "😀{{{{"}')).to.equal(false);
    });
    it('finds the end of long strings (past the byte-by-byte walk) by the parity of the backslashes before a quote', () => {
      const long = 'x'.repeat(100);
      expect(scan(`["${long}\\"[[[[", "x"]`)).to.equal(false); // escaped quote past 64 bytes: still inside
      expect(scan(`["${long}\\\\", [[[[]]]]]`)).to.equal(true); // an escaped backslash, then the closing quote
      expect(scan(`["${long}\\\\\\"[[[[\\\\\\\\", [1]]`)).to.equal(false);
      expect(scan(`["${'\\"'.repeat(200)}[[[[", {}]`)).to.equal(false);
      expect(scan(`["${long}`)).to.equal(false); // never closed: JSON.parse refuses it
    });
    it('scans a 31 MB string (a SAPI body at its cap) natively, not byte by byte in JavaScript', () => {
      // a JavaScript loop over every byte took ~60 ms of CPU for this; Buffer.indexOf takes ~1 ms
      const raw = Buffer.from(`{"payload":"${'A'.repeat(31 * 1024 * 1024)}","m":[[[[]]]]}`);
      nestingExceeds(raw, 3);
      const started = process.cpuUsage();
      expect(nestingExceeds(raw, 3)).to.equal(true);
      const used = process.cpuUsage(started);
      expect((used.user + used.system) / 1000, 'ms of CPU').to.be.below(20);
    });
  });

  describe('forbiddenCharacter', () => {
    it('refuses NUL, C0 controls but tab/LF/CR, lone surrogates, U+FFFE and U+FFFF', () => {
      for (const [s, character, position] of [['\u0000', 'U+0000', 0], ['ab\u0007', 'U+0007', 2], ['\u000b', 'U+000B', 0], ['\u001f', 'U+001F', 0], ['x\ud800', 'U+D800', 1], ['\udc00y', 'U+DC00', 0], ['\udc00\ud800', 'U+DC00', 0], ['\ufffe', 'U+FFFE', 0], ['\uffff', 'U+FFFF', 0]] as const) {
        expect(forbiddenCharacter(s), JSON.stringify(s)).to.deep.equal({ character, position });
      }
    });
    it('accepts tab, LF, CR, DEL, C1 controls, U+FFFD and paired surrogates', () => {
      for (const s of ['\t\n\r', '\u007f\u0085', '\ufffd', '😀', 'Košice ľščťžýáíé', '']) expect(forbiddenCharacter(s), JSON.stringify(s)).to.equal(undefined);
    });
    it('walks values and keys at any depth, with their loc, up to a maximum', () => {
      const issues = forbiddenTextIssues('body', { a: [{ 'k\u0000': 'ok' }, 'v\u0001'], ok: 'fine' }, 10);
      expect(issues.map((i) => i.loc)).to.deep.equal([['body', 'a', 0, 'k\u0000'], ['body', 'a', 1]]);
      expect(forbiddenTextIssues('query', { q: Array(100).fill('\u0000') }, 5)).to.have.length(5);
    });
  });

  describe('isIsoDate (the `date` format)', () => {
    it('takes real calendar days of years 0001-9999, strictly YYYY-MM-DD', () => {
      for (const d of ['0001-01-01', '9999-12-31', '2024-02-29', '2000-02-29', '2025-04-30']) expect(isIsoDate(d), d).to.equal(true);
      for (const d of ['0000-01-01', '0000-12-31', '2023-02-29', '1900-02-29', '2025-04-31', '2025-13-01', '2025-00-10', '2025-01-00', '+12024-01-01', '2024-1-01', '20240101', '2024-01-01T00:00:00Z', ' 2024-01-01', '١٢٣٤-٠١-٠١']) {
        expect(isIsoDate(d), d).to.equal(false);
      }
    });
  });

  describe('bounded 422 echo', () => {
    it('cuts long strings, never inside a surrogate pair', () => {
      expect(boundedInput('a'.repeat(1000))).to.equal(`${'a'.repeat(100)}…`);
      const cut = boundedInput(`${'a'.repeat(99)}😀😀`) as string;
      expect(cut).to.equal(`${'a'.repeat(99)}…`);
      expect(boundedInput('short')).to.equal('short');
    });
    it('summarises deep and wide values and keeps small ones as sent', () => {
      expect(boundedInput({ a: [1, { b: 2 }], c: null })).to.deep.equal({ a: [1, { b: 2 }], c: null });
      expect(boundedInput([[[[[1]]]]])).to.deep.equal([[['[… 1 item]']]]);
      expect(boundedInput(Array.from({ length: 30 }, (_, i) => i))).to.deep.equal([...Array.from({ length: 10 }, (_, i) => i), '… 20 more']);
      const wide = boundedInput(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]))) as Record<string, unknown>;
      expect(Object.keys(wide)).to.have.length(11);
      expect(wide['…']).to.equal('20 more');
      expect(JSON.stringify(boundedInput(Array.from({ length: 10 }, () => Array(10).fill('x'.repeat(500))))).length).to.be.below(3000);
    });
    it('keeps a "__proto__" key a plain key of the echo', () => {
      const echoed = boundedInput(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
      expect(Object.keys(echoed)).to.deep.equal(['__proto__']);
      expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
    });
    it(`shows at most ${MAX_ISSUES} issues, then counts the rest; cuts long keys in loc`, () => {
      const issues = Array.from({ length: 120 }, (_, i) => ({ loc: ['body', `k${i}${'x'.repeat(i === 0 ? 500 : 0)}`], msg: 'm', type: 't', input: i }));
      const bounded = boundIssues(issues);
      expect(bounded).to.have.length(MAX_ISSUES + 1);
      expect(bounded.at(-1)).to.deep.include({ loc: ['body'], type: 'too_many_errors', ctx: { shown: MAX_ISSUES, total: 120 } });
      expect(String(bounded[0]!.loc[1])).to.have.length(101);
    });
  });
});
