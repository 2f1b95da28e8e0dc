import { expect } from 'chai';
import {
  dicProblem,
  icDphProblem,
  icoCheckDigit,
  icoProblem,
  peppolIdProblem,
  sandboxPeppolId,
  skIban,
  skIbanProblem,
  vatIdProblem,
} from './slovak-identifiers.ts';

describe('Slovak identifiers', () => {
  describe('IČO', () => {
    it('accepts a real IČO whose check digit matches', () => {
      expect(icoProblem('35757442')).to.equal(null); // Slovak Telekom, a.s.
      expect(icoProblem('31 322 832')).to.equal(null); // spaces are tolerated
    });
    it('refuses a wrong check digit', () => expect(icoProblem('35757443')).to.match(/check digit/));
    it('refuses anything that is not 8 digits', () => expect(icoProblem('1234567')).to.match(/8 digits/));
    it('maps remainders 0 and 1 to check digits 1 and 0', () => {
      // 0000011: 1*3 + 1*2 = 5 -> 11-5 = 6; 0000000: remainder 0 -> 1
      expect(icoCheckDigit('0000000')).to.equal(1);
      expect(icoCheckDigit('0000011')).to.equal(6);
    });
  });

  describe('DIČ', () => {
    it('accepts 10 digits', () => expect(dicProblem('2020273893')).to.equal(null));
    it('says an 8-digit value is an IČO', () => expect(dicProblem('35757442')).to.match(/IČO/));
    it('says an SK value is an IČ DPH', () => expect(dicProblem('SK2020273893')).to.match(/IČ DPH/));
  });

  describe('IČ DPH', () => {
    it('accepts SK + 10 digits divisible by 11', () => expect(icDphProblem('SK2020273893')).to.equal(null));
    it('refuses a number not divisible by 11', () => expect(icDphProblem('SK2020273894')).to.match(/divisible by 11/));
    it('says 10 bare digits are a DIČ', () => expect(icDphProblem('2020273893')).to.match(/DIČ/));
    it('checks foreign VAT IDs by shape', () => {
      expect(vatIdProblem('CZ12345678')).to.equal(null);
      expect(vatIdProblem('X')).to.match(/country prefix/);
    });
  });

  describe('IBAN', () => {
    it('accepts a valid Slovak IBAN', () => expect(skIbanProblem('SK3112000000198742637541')).to.equal(null));
    it('refuses wrong check digits', () => expect(skIbanProblem('SK3212000000198742637541')).to.match(/check digits/));
    it('refuses a foreign or short IBAN', () => expect(skIbanProblem('CZ6508000000192000145399')).to.match(/SK followed by 22/));
    it('builds IBANs that pass its own check', () => expect(skIbanProblem(skIban('1100', '2620000123'))).to.equal(null));
  });

  describe('Peppol participant ID', () => {
    it('accepts production 0245 + DIČ and the sandbox shape', () => {
      expect(peppolIdProblem('0245:2020273893')).to.equal(null);
      expect(peppolIdProblem(sandboxPeppolId('SK2020273893'))).to.equal(null);
      expect(sandboxPeppolId('SK2020273893')).to.equal('9950:sk2020273893svctest');
    });
    it('refuses 0245 with an IČO', () => expect(peppolIdProblem('0245:35757442')).to.match(/DIČ/));
    it('refuses a value without a scheme', () => expect(peppolIdProblem('2020273893')).to.match(/scheme/));
  });
});
