import { expect } from 'chai';
import { countryAlpha2, postalCode, streetLine } from './address.ts';

describe('lookup: a register\'s address as party lines', () => {
  it('street and orientation number', () => expect(streetLine({ street: 'Einsteinova', buildingNumber: '24' })).to.equal('Einsteinova 24'));
  it('both numbers as súpisné/orientačné', () => expect(streetLine({ street: 'Hlavná', regNumber: 1234, buildingNumber: '12A' })).to.equal('Hlavná 1234/12A'));
  it('only the descriptive number (0 means none)', () => {
    expect(streetLine({ street: 'Hlavná', regNumber: 77 })).to.equal('Hlavná 77');
    expect(streetLine({ street: 'Hlavná', regNumber: 0, buildingNumber: '5' })).to.equal('Hlavná 5');
  });
  it('a village without streets: the municipality and the number', () =>
    expect(streetLine({ street: null, regNumber: 123, municipality: 'Malá Ida' })).to.equal('Malá Ida 123'));
  it('nothing at all is null', () => expect(streetLine({ municipality: 'Košice' })).to.equal(null));
  it('postal codes as NNN NN', () => {
    expect(postalCode('04001')).to.equal('040 01');
    expect(postalCode('040 01')).to.equal('040 01');
    expect(postalCode('A-1010')).to.equal('A-1010');
    expect(postalCode('')).to.equal(null);
  });
  it('country codes: 703 is SK, an unknown code null', () => {
    expect([countryAlpha2('703'), countryAlpha2(203), countryAlpha2('40'), countryAlpha2('999'), countryAlpha2(null)]).to.deep.equal(['SK', 'CZ', 'AT', null, null]);
  });
});
