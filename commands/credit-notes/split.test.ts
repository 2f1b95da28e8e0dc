import { expect } from 'chai';
import { Dec } from '../invoices/money.ts';
import { splitGross, splitWithin } from './split.ts';

const d = (v: string) => new Dec(v);
const show = ({ base, vat }: { base: Dec; vat: Dec }) => [base.toFixed(2), vat.toFixed(2)];
const left = (base: string, vat: string) => ({ base: d(base), vat: d(vat), gross: d(base).plus(d(vat)) });

describe('splitting a VAT-inclusive amount (rules 4 and 5)', () => {
  it('rule 4: base = round-half-up(gross / (1 + rate/100), 2), vat = gross − base', () => {
    expect(show(splitGross(d('100.00'), d('23')))).to.deep.equal(['81.30', '18.70']);
    expect(show(splitGross(d('10.00'), d('5')))).to.deep.equal(['9.52', '0.48']);
    expect(show(splitGross(d('7.00'), d('0')))).to.deep.equal(['7.00', '0.00']);
  });

  it('rule 4 rounds half up: 0.20 at 60 % is 0.125 → 0.13', () => {
    expect(show(splitGross(d('0.20'), d('60')))).to.deep.equal(['0.13', '0.07']);
  });

  it('rule 5: a gross equal to left_gross credits left_base and left_vat as they stand', () => {
    expect(show(splitWithin(d('10.00'), d('23'), left('8.10', '1.90')))).to.deep.equal(['8.10', '1.90']);
  });

  it('rule 5: a smaller gross is split by rule 4 when both parts fit', () => {
    expect(show(splitWithin(d('50.00'), d('23'), left('81.30', '18.70')))).to.deep.equal(['40.65', '9.35']);
  });

  it('rule 5: a base one cent above left_base moves one cent to the VAT', () => {
    // 12.30 / 1.23 = 10.00 > 9.99 left
    expect(show(splitWithin(d('12.30'), d('23'), left('9.99', '2.32')))).to.deep.equal(['9.99', '2.31']);
  });

  it('rule 5: a VAT one cent above left_vat moves one cent to the base', () => {
    // 12.29 / 1.23 = 9.99, VAT 2.30 > 2.29 left
    expect(show(splitWithin(d('12.29'), d('23'), left('10.01', '2.29')))).to.deep.equal(['10.00', '2.29']);
  });

  it('rule 5: where earlier credits made left drift more than a cent, the least move that fits', () => {
    // 9.99 / 1.23 = 8.12, two cents above 8.10 left
    expect(show(splitWithin(d('9.99'), d('23'), left('8.10', '1.90')))).to.deep.equal(['8.10', '1.89']);
  });

  it('refuses a gross above what is left (the callers report vat_rate_cap first)', () => {
    expect(() => splitWithin(d('10.01'), d('23'), left('8.13', '1.87'))).to.throw(RangeError);
  });
});
