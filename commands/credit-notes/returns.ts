/**
 * The rows of a returned_goods credit note: one `return` row per lines[] entry, at the invoice
 * row's own price and rate (return-share.ts rounds it), capped twice (rule 11):
 * - per row: the quantity at most the row's left_quantity (row_cap);
 * - per bucket: the returned base and VAT of all rows in one bucket at most its left_base and
 *   left_vat (vat_rate_cap, reported at every index of that bucket, since together they overflow).
 * An index gets one finding at most: an unknown, repeated or over-quantity row is left out of the
 * bucket sums. The return that takes the last net and VAT the bucket's rows have left also credits
 * the bucket's rounding part (rounding.ts), so returning everything credits the bucket exactly.
 *
 * Known limit: where the rounding part is negative (a ZZZ allowance, or per-line VAT adding up to
 * more than the bucket's), a return that leaves only a cent or two on the bucket's rows can find
 * less than its rows' amounts left, and is refused (vat_rate_cap); returning those rows together
 * with the rest (or a full_reversal) fits exactly. The cap is never bent to let it through.
 */
import type { Decimal } from 'decimal.js';
import { ZERO, decimal, formatDecimal, formatMoney } from '../invoices/money.ts';
import { bucketKey, bucketOf } from './bucket-key.ts';
import { CreditLimitExceeded, type CreditLimitDetail } from './credit-limit.ts';
import type { Allowance, AllowanceBucket, AllowanceLine, CreditRow, ReturnedLine } from './model.ts';
import { returnShare, type Share } from './return-share.ts';
import { roundingOf, roundingRow } from './rounding.ts';

interface BucketReturn {
  bucket: AllowanceBucket;
  indexes: number[];
  rows: CreditRow[];
  base: Decimal;
  vat: Decimal;
}

export function returnRows(lines: readonly ReturnedLine[], allowance: Pick<Allowance, 'buckets' | 'lines'>): CreditRow[] {
  const byId = new Map(allowance.lines.map((l) => [l.id, l]));
  const buckets = new Map(allowance.buckets.map((b) => [bucketKey(b), b]));
  const seen = new Set<string>();
  const returning = new Map<string, Share>();
  const byBucket = new Map<string, BucketReturn>();
  const details: { index: number; detail: CreditLimitDetail }[] = [];

  lines.forEach((entry, index) => {
    const line = byId.get(entry.source_line_id);
    if (!line) return details.push({ index, detail: { rule: 'row_not_on_invoice', field: `lines[${index}].source_line_id` } });
    if (seen.has(line.id)) return details.push({ index, detail: { rule: 'row_repeated', field: `lines[${index}].source_line_id` } });
    seen.add(line.id);
    const quantity = decimal(entry.quantity);
    if (quantity.greaterThan(decimal(line.left_quantity))) {
      return details.push({ index, detail: { rule: 'row_cap', field: `lines[${index}].quantity`, left_quantity: line.left_quantity } });
    }
    const key = bucketKey(line);
    const bucket = buckets.get(key);
    if (!bucket) throw new RangeError(`line ${line.line_number} falls in no VAT bucket of the invoice`);
    const share = returnShare(line, quantity);
    returning.set(line.id, share);
    const group = byBucket.get(key) ?? { bucket, indexes: [], rows: [], base: ZERO, vat: ZERO };
    group.indexes.push(index);
    group.rows.push(row(bucket, line, quantity, share.net, share.vat));
    group.base = group.base.plus(share.net);
    group.vat = group.vat.plus(share.vat);
    byBucket.set(key, group);
  });

  const rounding = roundingOf(allowance);
  const rows: CreditRow[] = [];
  for (const [key, group] of byBucket) {
    const part = takesTheLast(key, allowance.lines, returning) ? rounding.get(key) : undefined;
    if (part && !(part.base.isZero() && part.vat.isZero())) {
      group.rows.push(roundingRow(group.bucket, part.base, part.vat));
      group.base = group.base.plus(part.base);
      group.vat = group.vat.plus(part.vat);
    }
    const { left_base, left_vat, left_gross } = group.bucket;
    if (group.base.greaterThan(decimal(left_base)) || group.vat.greaterThan(decimal(left_vat))) {
      for (const index of group.indexes) details.push({ index, detail: { rule: 'vat_rate_cap', field: `lines[${index}].quantity`, left_base, left_vat, left_gross } });
    } else rows.push(...group.rows);
  }
  if (details.length > 0) throw new CreditLimitExceeded(details.sort((a, b) => a.index - b.index).map((d) => d.detail));
  return rows;
}

/**
 * Whether this return takes the last money the bucket's rows have left: before it some net or VAT
 * was left on the bucket's returnable rows (quantity above 0), after it none is. Money, not
 * quantity, so a free row still unreturned does not hold the rounding part back; and a transition,
 * so the rounding part is credited once, however the rest of the quantities come back later.
 */
function takesTheLast(key: string, lines: readonly AllowanceLine[], returning: ReadonlyMap<string, Share>): boolean {
  const rows = lines.filter((l) => bucketKey(l) === key && decimal(l.quantity).greaterThan(ZERO));
  const moneyLeft = (l: AllowanceLine, share: Share | undefined) =>
    !decimal(l.left_net).minus(share?.net ?? ZERO).isZero() || !decimal(l.left_vat).minus(share?.vat ?? ZERO).isZero();
  return rows.some((l) => moneyLeft(l, undefined)) && !rows.some((l) => moneyLeft(l, returning.get(l.id)));
}

function row(bucket: AllowanceBucket, line: AllowanceLine, quantity: Decimal, net: Decimal, vat: Decimal): CreditRow {
  return {
    kind: 'return', ...bucketOf(bucket), source_line_id: line.id, quantity: formatDecimal(quantity),
    base: formatMoney(net), vat: formatMoney(vat), gross: formatMoney(net.plus(vat)),
  };
}
