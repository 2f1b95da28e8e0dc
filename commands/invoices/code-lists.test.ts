import { expect } from 'chai';
import { TAX_CATEGORY_CODES, codeLists, ibanCurrency } from './code-lists.ts';

describe('code lists', () => {
  it('builds sets from arrays, VATEX upper-cased as BR-CL-22 compares them', () => {
    const lists = codeLists({ unitCodes: ['C62'], vatexCodes: ['vatex-eu-ae'], currencyCodes: ['EUR'], countryCodes: ['SK'] });
    expect(lists.vatexCodes.has('VATEX-EU-AE')).to.equal(true);
    expect(lists.unitCodes.has('C62')).to.equal(true);
  });
  it('embeds the UNCL 5305 categories EN16931 allows (BR-CL-18)', () => {
    expect([...TAX_CATEGORY_CODES].sort()).to.deep.equal(['AE', 'B', 'E', 'G', 'K', 'L', 'M', 'O', 'S', 'Z']);
  });
  describe('the currency of an IBAN country (SK-SVC-003)', () => {
    it('is EUR for Slovakia and the other euro countries', () => {
      expect(ibanCurrency('SK')).to.equal('EUR');
      expect(ibanCurrency('de')).to.equal('EUR');
    });
    it('is the national currency elsewhere', () => expect(ibanCurrency('CZ')).to.equal('CZK'));
    it('is unknown where an account may be in any currency', () => expect(ibanCurrency('US')).to.equal(null));
  });
});
