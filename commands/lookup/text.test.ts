import { expect } from 'chai';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { foldText, nameMatches, searchQuery } from './text.ts';

function refused(raw: string): string {
  try {
    searchQuery(raw);
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidFields);
    const [problem] = (error as InvalidFields).problems;
    expect(problem?.loc).to.deep.equal(['query', 'q']);
    return problem?.msg ?? '';
  }
  return expect.fail(`expected ${JSON.stringify(raw)} to be refused`);
}

describe('lookup: search text', () => {
  it('folds diacritics, case and punctuation away', () => {
    expect(foldText('Košice')).to.equal('kosice');
    expect(foldText('Kŕdeľ ŠŤASTNÝCH ďatľov, s.r.o.')).to.equal('krdel stastnych datlov s r o');
    expect(foldText('Mliekáreň Ôsmy  a.s.')).to.equal('mliekaren osmy a s');
  });

  it('"kosice" finds "Košice", in any word order and case', () => {
    expect(nameMatches('Stavebniny Košice s.r.o.', 'kosice')).to.equal(true);
    expect(nameMatches('Stavebniny Košice s.r.o.', 'KOŠICE stavebn')).to.equal(true);
    expect(nameMatches('Stavebniny Košice s.r.o.', 'kosice bratislava')).to.equal(false);
  });

  it('trims and collapses the text', () => expect(searchQuery('  Košice \t stavebniny ')).to.equal('Košice stavebniny'));

  it(`refuses fewer than 3 letters or digits`, () => {
    expect(refused('ab')).to.equal('q must have at least 3 letters or digits');
    expect(refused('  a.b  ')).to.equal('q must have at least 3 letters or digits');
    expect(searchQuery('abc')).to.equal('abc');
  });

  it('refuses more than 200 characters (counted as characters, not bytes)', () => {
    expect(searchQuery('š'.repeat(200))).to.have.length(200);
    expect(refused('š'.repeat(201))).to.equal('q must be at most 200 characters');
  });
});
