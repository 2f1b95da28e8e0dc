/**
 * The part of each VAT bucket that no line carries: base − Σ line_net (the bucket's ZZZ
 * correction) and vat − Σ line_vat (per-bucket against per-line VAT rounding). Usually 0.00; when
 * not, whatever credits the last of a bucket's lines (a full_reversal's copies, or the return that
 * takes the last net and VAT of its rows) credits it too, in a `rounding` row, so the bucket ends at
 * exactly zero.
 */
import type { Decimal } from 'decimal.js';
import { ZERO, decimal, formatMoney } from '../invoices/money.ts';
import { bucketKey, bucketOf } from './bucket-key.ts';
import type { Allowance, AllowanceBucket, CreditRow } from './model.ts';

export interface Rounding {
  base: Decimal;
  vat: Decimal;
}

/** The rounding part of every bucket, by bucket key. */
export function roundingOf(allowance: Pick<Allowance, 'buckets' | 'lines'>): Map<string, Rounding> {
  const parts = new Map<string, Rounding>(allowance.buckets.map((b) => [bucketKey(b), { base: decimal(b.base), vat: decimal(b.vat) }]));
  for (const line of allowance.lines) {
    const key = bucketKey(line);
    const part = parts.get(key) ?? { base: ZERO, vat: ZERO };
    parts.set(key, { base: part.base.minus(decimal(line.line_net)), vat: part.vat.minus(decimal(line.line_vat)) });
  }
  return parts;
}

/** The row that credits a bucket's rounding part. */
export function roundingRow(bucket: AllowanceBucket, base: Decimal, vat: Decimal): CreditRow {
  return { kind: 'rounding', ...bucketOf(bucket), source_line_id: null, quantity: null, base: formatMoney(base), vat: formatMoney(vat), gross: formatMoney(base.plus(vat)) };
}
