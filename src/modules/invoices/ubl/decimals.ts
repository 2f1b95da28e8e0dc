/**
 * How decimal strings are written into UBL and read back. The builder and the reader use the same
 * normalisation, so build → read → build is byte-identical: money with exactly two decimals
 * ("1300" → "1300.00"), quantities, prices and rates in their shortest plain form ("25.0" → "25").
 */
import { Decimal } from 'decimal.js';

const Plain = Decimal.clone({ precision: 40, toExpNeg: -40, toExpPos: 40 });
const PLAIN_DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

function parse(value: string, what: string): Decimal {
  const text = value.trim();
  if (!PLAIN_DECIMAL.test(text)) throw new RangeError(`${what} is not a decimal number: ${JSON.stringify(value)}`);
  return new Plain(text);
}

/** Money: two decimals. More than two is kept as stated (BR-DEC-* will report it), never rounded away. */
export function money(value: string, what = 'amount'): string {
  const d = parse(value, what);
  const out = d.toFixed(Math.max(2, d.decimalPlaces()));
  return d.isZero() ? out.replace(/^-/, '') : out;
}

/** Quantities, prices, rates, percentages: shortest plain form, no exponent, never "-0". */
export function plain(value: string, what = 'number'): string {
  const d = parse(value, what);
  return d.isZero() ? '0' : d.toFixed();
}

export function isZero(value: string): boolean {
  return parse(value, 'number').isZero();
}

/** a ÷ b in plain form (a price per BaseQuantity), exact to 40 digits. */
export function divide(a: string, b: string): string {
  return plain(parse(a, 'price').dividedBy(parse(b, 'base quantity')).toFixed());
}

/** Σ values − Σ minus, as money. */
export function netSum(values: string[], minus: string[] = []): string {
  let total = new Plain(0);
  for (const v of values) total = total.plus(parse(v, 'amount'));
  for (const v of minus) total = total.minus(parse(v, 'amount'));
  return money(total.toFixed());
}
