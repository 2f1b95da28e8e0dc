import { expect } from 'chai';
import { Dec, decimal, formatDecimal, formatMoney, parseDecimal, percentOf, round2, sum } from './money.ts';

describe('money', () => {
  describe('parseDecimal', () => {
    it('reads plain decimal strings, signed or not', () => {
      expect(parseDecimal('12.50')?.toString()).to.equal('12.5');
      expect(parseDecimal('-3')?.toString()).to.equal('-3');
      expect(parseDecimal('+0.001')?.toString()).to.equal('0.001');
    });
    for (const bad of ['NaN', 'Infinity', '1e3', '1E-2', '0x10', '', ' 1', '1 ', '1,5', '.5', '5.', '1.2.3', 'abc', '--1']) {
      it(`refuses ${JSON.stringify(bad)}`, () => expect(parseDecimal(bad)).to.equal(null));
    }
    it('refuses null and undefined', () => {
      expect(parseDecimal(null)).to.equal(null);
      expect(parseDecimal(undefined)).to.equal(null);
    });
    it('decimal() throws a RangeError naming the field', () =>
      expect(() => decimal('1e3', 'lines[0].quantity')).to.throw(RangeError, /lines\[0\]\.quantity/));
  });

  describe('rounding', () => {
    it('rounds half-up to 2 places where binary floats would not (1.005 → 1.01)', () => {
      expect(round2(new Dec('1.005')).toFixed(2)).to.equal('1.01');
      expect(round2(new Dec('2.675')).toFixed(2)).to.equal('2.68');
      expect(round2(new Dec('2.674999')).toFixed(2)).to.equal('2.67');
    });
    it('rounds a negative half away from zero, the mirror of the positive', () =>
      expect(round2(new Dec('-0.095')).toFixed(2)).to.equal('-0.10'));
    it('keeps precision far beyond doubles', () =>
      expect(new Dec('12345678901234567890.01').plus('0.01').toString()).to.equal('12345678901234567890.02'));
  });

  describe('formatting', () => {
    it('formats money with exactly two decimals', () => {
      expect(formatMoney(new Dec('5'))).to.equal('5.00');
      expect(formatMoney(new Dec('0.125'))).to.equal('0.13');
      expect(formatMoney(new Dec('1234567.1'))).to.equal('1234567.10');
    });
    it('never prints negative zero', () => expect(formatMoney(new Dec('-0.001'))).to.equal('0.00'));
    it('never prints an exponent', () => expect(formatMoney(new Dec('1e21'))).to.equal('1000000000000000000000.00'));
    it('prints rates in their shortest form', () => {
      expect(formatDecimal(new Dec('23.00'))).to.equal('23');
      expect(formatDecimal(new Dec('-0'))).to.equal('0');
    });
  });

  it('sums exactly (0.1 + 0.2 = 0.3)', () => expect(sum([new Dec('0.1'), new Dec('0.2')]).toString()).to.equal('0.3'));
  it('sums nothing to zero', () => expect(sum([]).toString()).to.equal('0'));
  it('takes a percentage rounded half-up (10.50 × 19 % = 1.995 → 2.00)', () =>
    expect(percentOf(new Dec('10.50'), new Dec('19')).toFixed(2)).to.equal('2.00'));
});
