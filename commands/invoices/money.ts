/**
 * Money arithmetic for invoices. Every amount, quantity and rate is a decimal.js value inside and
 * a decimal string on the wire; a JS number never holds money.
 *
 * One Decimal configuration for the whole domain (`Dec`): 40 significant digits (far more than any
 * invoice needs, so only the explicit 2-place rounding ever rounds), half-up rounding, and no
 * exponent notation when printed. Half-up in decimal.js means half away from zero, so -0.005
 * rounds to -0.01: a credit (negative) line rounds the mirror image of the same positive line.
 */
import { Decimal } from 'decimal.js';

export const Dec = Decimal.clone({
  precision: 40,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 40,
});
export type Dec = Decimal;

/** Plain decimal notation only: optional sign, digits, optional fraction. No exponent, no "1.", no ".5". */
const DECIMAL_PATTERN = /^[+-]?\d+(?:\.\d+)?$/;

/** The decimal a string holds, or null when it is not a plain decimal string. */
export function parseDecimal(value: string | null | undefined): Decimal | null {
  if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value)) return null;
  return new Dec(value);
}

/** The decimal a string holds; throws a RangeError naming `what` when it is not one. */
export function decimal(value: string, what = 'value'): Decimal {
  const parsed = parseDecimal(value);
  if (parsed === null) throw new RangeError(`${what} is not a decimal string: ${JSON.stringify(value)}`);
  return parsed;
}

export const ZERO: Decimal = new Dec(0);
export const HUNDRED: Decimal = new Dec(100);
export const CENT: Decimal = new Dec('0.01');

/** Rounds half-up (away from zero) to 2 decimal places. */
export function round2(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** Exactly two decimals, rounding half-up; never "-0.00". */
export function formatMoney(value: Decimal): string {
  const rounded = round2(value);
  return (rounded.isZero() ? ZERO : rounded).toFixed(2);
}

/** A rate or quantity in its shortest plain form ("23.00" → "23"), so equal rates compare equal. */
export function formatDecimal(value: Decimal): string {
  return (value.isZero() ? ZERO : value).toString();
}

export function sum(values: Iterable<Decimal>): Decimal {
  let total = ZERO;
  for (const v of values) total = total.plus(v);
  return total;
}

/** round2(amount × percent / 100): a percentage of an amount, in money. */
export function percentOf(amount: Decimal, percent: Decimal): Decimal {
  return round2(amount.times(percent).dividedBy(HUNDRED));
}
