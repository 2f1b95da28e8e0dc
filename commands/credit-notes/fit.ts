/**
 * Whether rows made earlier still fit what is left now: a waiting credit note (pending approval)
 * keeps the rows the buyer will see, so when it is sent each of its buckets must still have that
 * much base and VAT left, and each returned row that much quantity. Refused with the spec's
 * credit_limit_exceeded, one detail per offending row of the credit note (`rows[i]`).
 */
import { decimal } from '../invoices/money.ts';
import { bucketKey } from './bucket-key.ts';
import { CreditLimitExceeded, type CreditLimitDetail } from './credit-limit.ts';
import type { Allowance, CreditRow } from './model.ts';

export function assertRowsFit(rows: readonly CreditRow[], allowance: Allowance): void {
  const buckets = new Map(allowance.buckets.map((b) => [bucketKey(b), b]));
  const lines = new Map(allowance.lines.map((l) => [l.id, l]));
  const sums = new Map<string, { base: ReturnType<typeof decimal>; vat: ReturnType<typeof decimal> }>();
  for (const row of rows) {
    const key = bucketKey(row);
    const sum = sums.get(key) ?? { base: decimal('0'), vat: decimal('0') };
    sums.set(key, { base: sum.base.plus(decimal(row.base)), vat: sum.vat.plus(decimal(row.vat)) });
  }
  const details: CreditLimitDetail[] = [];
  rows.forEach((row, i) => {
    const bucket = buckets.get(bucketKey(row));
    const sum = sums.get(bucketKey(row));
    if (!bucket || !sum) {
      details.push({ rule: 'vat_rate_not_on_invoice', field: `rows[${i}].vat_rate` });
      return;
    }
    if (sum.base.greaterThan(decimal(bucket.left_base)) || sum.vat.greaterThan(decimal(bucket.left_vat))) {
      details.push({ rule: 'vat_rate_cap', field: `rows[${i}].gross`, left_base: bucket.left_base, left_vat: bucket.left_vat, left_gross: bucket.left_gross });
      return;
    }
    if (row.kind === 'return' && row.source_line_id && row.quantity) {
      const line = lines.get(row.source_line_id);
      if (!line) details.push({ rule: 'row_not_on_invoice', field: `rows[${i}].source_line_id` });
      else if (decimal(row.quantity).greaterThan(decimal(line.left_quantity))) details.push({ rule: 'row_cap', field: `rows[${i}].quantity`, left_quantity: line.left_quantity });
    }
  });
  if (details.length > 0) throw new CreditLimitExceeded(details);
}
