import { expect } from 'chai';
import { DomainError } from '../shared/domain-error.ts';
import { mergeSearch, type CompanySuggestion } from './search.ts';

const s = (ico: string, name: string, terminated = false): CompanySuggestion => ({ ico, name, street: null, city: null, terminated });

describe('lookup: merging search results', () => {
  it('one entry per IČO, companies in business first, then terminated ones, each in the source\'s order', () => {
    const merged = mergeSearch([
      { source: 'rpo', status: 'found', results: [s('1', 'A', true), s('2', 'B'), s('3', 'C')] },
      { source: 'registeruz', status: 'found', results: [s('2', 'B (RÚZ)'), s('4', 'D')] },
    ], 10);
    expect(merged.results.map((r) => [r.ico, r.name])).to.deep.equal([['2', 'B'], ['3', 'C'], ['4', 'D'], ['1', 'A']]);
    expect(merged.complete).to.equal(true);
  });

  it('at most `limit` results', () =>
    expect(mergeSearch([{ source: 'rpo', status: 'found', results: ['1', '2', '3'].map((i) => s(i, i)) }], 2).results).to.have.length(2));

  it('one searching source down: what the others found, marked incomplete', () => {
    const merged = mergeSearch([{ source: 'rpo', status: 'unavailable', reason: 'HTTP 503' }, { source: 'registeruz', status: 'found', results: [s('4', 'D')] }], 10);
    expect([merged.results.length, merged.complete]).to.deep.equal([1, false]);
  });

  it('every searching source down: 502 company_registry_unavailable, not an empty list', () => {
    expect(() => mergeSearch([{ source: 'rpo', status: 'unavailable', reason: 'timed out' }], 10))
      .to.throw(DomainError).that.includes({ code: 'company_registry_unavailable' });
  });
});
