/**
 * The rows of a full_reversal. On an invoice nothing has credited yet, the invoice row for row
 * (`copy` rows with each line's line_net and line_vat, plus each bucket's rounding part), so the
 * credit note mirrors the invoice and its totals equal the invoice's. After earlier credit notes,
 * one `rest` row per bucket with exactly what is left (left_base and left_vat as they stand). Either
 * way every bucket is left at zero.
 */
import { decimal } from '../invoices/money.ts';
import { bucketKey, bucketOf } from './bucket-key.ts';
import type { Allowance, CreditRow } from './model.ts';
import { roundingOf, roundingRow } from './rounding.ts';

export function fullReversalRows(allowance: Pick<Allowance, 'buckets' | 'lines'>): CreditRow[] {
  return untouched(allowance) ? copies(allowance) : rests(allowance);
}

/** Nothing credited yet: no bucket credited, no line returned. */
export function untouched(allowance: Pick<Allowance, 'buckets' | 'lines'>): boolean {
  const zero = (value: string) => decimal(value).isZero();
  return (
    allowance.buckets.every((b) => zero(b.credited_base) && zero(b.credited_gross) && decimal(b.left_vat).equals(decimal(b.vat))) &&
    allowance.lines.every((l) => zero(l.returned_quantity))
  );
}

function copies(allowance: Pick<Allowance, 'buckets' | 'lines'>): CreditRow[] {
  const buckets = new Map(allowance.buckets.map((b) => [bucketKey(b), b]));
  const rows: CreditRow[] = allowance.lines.map((line) => {
    const bucket = buckets.get(bucketKey(line));
    if (!bucket) throw new RangeError(`line ${line.line_number} falls in no VAT bucket of the invoice`);
    return {
      kind: 'copy', ...bucketOf(bucket), source_line_id: line.id, quantity: line.quantity,
      base: line.line_net, vat: line.line_vat, gross: line.line_gross,
    };
  });
  for (const [key, part] of roundingOf(allowance)) {
    const bucket = buckets.get(key);
    if (bucket && !(part.base.isZero() && part.vat.isZero())) rows.push(roundingRow(bucket, part.base, part.vat));
  }
  return rows;
}

function rests(allowance: Pick<Allowance, 'buckets'>): CreditRow[] {
  return allowance.buckets
    .filter((b) => !(decimal(b.left_base).isZero() && decimal(b.left_vat).isZero()))
    .map((b) => ({ kind: 'rest', ...bucketOf(b), source_line_id: null, quantity: null, base: b.left_base, vat: b.left_vat, gross: b.left_gross }));
}
