/**
 * A VAT-inclusive amount split into base and VAT (rules 4 and 5).
 *
 *   rule 4: base = round-half-up(gross / (1 + rate/100), 2); vat = gross − base
 *   rule 5: gross = left_gross credits left_base and left_vat as they stand; a smaller gross is
 *           split by rule 4, then moved by the least that keeps base ≤ left_base and vat ≤ left_vat.
 *
 * The spec says "at most one cent", and one cent is all it takes while a bucket's left base and VAT
 * keep the rate's proportion to within a cent. Earlier credit notes can make them drift further
 * (each split rounds, and returns credit per-line VAT), so the move is the least that fits rather
 * than a fixed cent: base is clamped into [gross − left_vat, left_base], which is never empty for
 * a gross up to left_gross. The caller refuses a gross above left_gross first (vat_rate_cap).
 */
import type { Decimal } from 'decimal.js';
import { HUNDRED, round2 } from '../invoices/money.ts';

interface Split {
  base: Decimal;
  vat: Decimal;
}

export interface Left {
  base: Decimal;
  vat: Decimal;
  gross: Decimal;
}

/** Rule 4: the split of a VAT-inclusive gross at a rate in percent. */
export function splitGross(gross: Decimal, rate: Decimal): Split {
  const base = round2(gross.dividedBy(HUNDRED.plus(rate).dividedBy(HUNDRED)));
  return { base, vat: gross.minus(base) };
}

/** Rule 5: the split of a gross at most `left.gross`, never above left base or left VAT. */
export function splitWithin(gross: Decimal, rate: Decimal, left: Left): Split {
  if (gross.greaterThan(left.gross)) throw new RangeError(`gross ${gross.toFixed(2)} is above what is left (${left.gross.toFixed(2)})`);
  if (gross.equals(left.gross)) return { base: left.base, vat: left.vat };
  const { base } = splitGross(gross, rate);
  const lowest = gross.minus(left.vat);
  const fitted = base.greaterThan(left.base) ? left.base : base.lessThan(lowest) ? lowest : base;
  return { base: fitted, vat: gross.minus(fitted) };
}
