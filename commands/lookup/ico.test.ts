import { expect } from 'chai';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { icoInQuery, lookupIco } from './ico.ts';

function refusal(raw: string): InvalidFields {
  try {
    lookupIco(raw);
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidFields);
    return error as InvalidFields;
  }
  return expect.fail(`expected ${raw} to be refused`);
}

describe('lookup: the IČO asked for', () => {
  it('takes 8 digits with a matching check digit', () => {
    expect(lookupIco('35757442')).to.equal('35757442');
    expect(lookupIco('50100017')).to.equal('50100017');
  });

  it('refuses a wrong check digit with 422 at path.ico', () =>
    expect(refusal('35757443').problems).to.deep.equal([{ loc: ['path', 'ico'], msg: 'IČO check digit does not match', type: 'value_error.ico', input: '35757443' }]));

  for (const raw of ['3575744', '357574420', '3575744a', '35 757 442', '']) {
    it(`refuses ${JSON.stringify(raw)}: not 8 digits`, () => expect(refusal(raw).problems[0]?.msg).to.equal('IČO must be exactly 8 digits'));
  }

  it('a search text that is a valid IČO (spaces allowed) is searched by identifier; anything else by name', () => {
    expect(icoInQuery('35 757 442')).to.equal('35757442');
    expect(icoInQuery('35757443')).to.equal(null);
    expect(icoInQuery('Telekom 35757442')).to.equal(null);
  });
});
