/**
 * The totals of a credit note: exactly what its rows credit, never recomputed from its lines.
 *
 *   per VAT bucket: taxable amount (BT-116) = Σ row base, tax amount (BT-117) = Σ row vat
 *   total_net = Σ base, total_vat = Σ vat, total_gross = amount_due = Σ gross (no payable rounding)
 *
 * The lines must still add up to each bucket's taxable amount (BR-CO-10/13, BR-S-08, BR-Z-08, …,
 * which are exact for the zero-rated categories). What a bucket's lines do not carry (its
 * `rounding` rows' base, and a return line that cannot reach its share, document-lines.ts) becomes a
 * document-level charge (lines short) or allowance (lines over) with reason ZZZ "Rounding
 * correction" in that bucket: the invoice's own correction mechanism (totals.ts), so the reader
 * and the PDF know it.
 *
 * The tax amount is the rows' VAT, which need not be round2(taxable × rate): rule 5 credits a
 * bucket's left VAT as it stands, and returns credit per-line VAT. EN16931 allows for that: BR-CO-17
 * and BR-S-09 accept a tax amount within one currency unit (strictly) of taxable × rate, and no
 * Peppol or Slovak rule is stricter. Nothing in UBL can carry a larger difference (the breakdown
 * has one taxable and one tax amount per rate, and BR-S-08 ties the taxable to the lines), so a
 * bucket whose rows drift by 1.00 or more throws: such rows cannot be issued as a valid document.
 */
import type { Decimal } from 'decimal.js';
import { ZZZ_REASON, ZZZ_REASON_CODE } from '../invoices/totals.ts';
import { HUNDRED, ZERO, decimal, formatMoney, round2, sum } from '../invoices/money.ts';
import type { DocumentAllowanceCharge, InvoiceTotals, LineAmounts, VatSubtotal } from '../invoices/model.ts';
import { bucketKey } from './bucket-key.ts';
import type { CreditRow, VatBucketKey } from './model.ts';

/** A line's amounts with the bucket it falls in. */
export interface BucketedLine {
  bucket: VatBucketKey;
  amounts: LineAmounts;
}

interface Bucket {
  key: VatBucketKey;
  base: Decimal;
  vat: Decimal;
  lines: Decimal;
}

/** BR-CO-17 / BR-S-09: a tax amount must be within (strictly) one unit of taxable × rate. */
const VAT_TOLERANCE = decimal('1');

/**
 * The totals of `rows`, whose lines are `lines`; `breakdown` is the invoice's VAT breakdown, which
 * gives the buckets' order (and spelling) as the invoice had them.
 */
export function documentTotals(rows: readonly CreditRow[], lines: readonly BucketedLine[], breakdown: readonly VatSubtotal[]): InvoiceTotals {
  const buckets = new Map<string, Bucket>(breakdown.map((s) => [bucketKey(s), { key: s, base: ZERO, vat: ZERO, lines: ZERO }]));
  const bucketOf = (of: VatBucketKey, what: string): Bucket => {
    const bucket = buckets.get(bucketKey(of));
    if (!bucket) throw new RangeError(`${what} falls in VAT bucket ${bucketKey(of)}, which the invoice lacks`);
    return bucket;
  };
  const used = new Set<Bucket>();
  for (const row of rows) {
    if (!decimal(row.base).plus(decimal(row.vat)).equals(decimal(row.gross))) throw new RangeError(`a row's base + vat is not its gross: ${JSON.stringify(row)}`);
    const bucket = bucketOf(row, `a ${row.kind} row`);
    bucket.base = bucket.base.plus(decimal(row.base));
    bucket.vat = bucket.vat.plus(decimal(row.vat));
    used.add(bucket);
  }
  for (const line of lines) {
    const bucket = bucketOf(line.bucket, `line ${line.amounts.line_number}`);
    bucket.lines = bucket.lines.plus(decimal(line.amounts.line_net));
    used.add(bucket);
  }

  const vatBreakdown: VatSubtotal[] = [];
  const corrections: DocumentAllowanceCharge[] = [];
  for (const bucket of [...buckets.values()].filter((b) => used.has(b))) {
    const { vat_rate, vat_category_code, vat_exemption_reason_code } = bucket.key;
    const drift = bucket.vat.minus(round2(bucket.base.times(decimal(vat_rate)).dividedBy(HUNDRED)));
    if (drift.abs().greaterThanOrEqualTo(VAT_TOLERANCE)) {
      throw new RangeError(`VAT bucket ${bucketKey(bucket.key)} credits VAT ${formatMoney(bucket.vat)} on ${formatMoney(bucket.base)}: ${formatMoney(drift)} off the rate, beyond what BR-CO-17 accepts`);
    }
    vatBreakdown.push({ vat_category_code, vat_rate, vat_exemption_reason_code, taxable_amount: formatMoney(bucket.base), tax_amount: formatMoney(bucket.vat) });
    const correction = bucket.base.minus(bucket.lines);
    if (!correction.isZero()) {
      corrections.push({
        charge: correction.isPositive(), reason_code: ZZZ_REASON_CODE, reason: ZZZ_REASON, amount: formatMoney(correction.abs()),
        vat_category_code, vat_rate, vat_exemption_reason_code,
      });
    }
  }

  const amountOf = (c: DocumentAllowanceCharge) => decimal(c.amount);
  const allowanceTotal = sum(corrections.filter((c) => !c.charge).map(amountOf));
  const chargeTotal = sum(corrections.filter((c) => c.charge).map(amountOf));
  const totalNet = sum(rows.map((r) => decimal(r.base)));
  const totalVat = sum(rows.map((r) => decimal(r.vat)));
  const totalGross = sum(rows.map((r) => decimal(r.gross)));
  return {
    lines: lines.map((l) => l.amounts),
    line_extension_amount: formatMoney(sum(lines.map((l) => decimal(l.amounts.line_net)))),
    allowance_total: formatMoney(allowanceTotal),
    charge_total: formatMoney(chargeTotal),
    allowances_charges: corrections,
    total_net: formatMoney(totalNet),
    total_vat: formatMoney(totalVat),
    total_gross: formatMoney(totalGross),
    payable_rounding_amount: formatMoney(ZERO),
    amount_due: formatMoney(totalGross),
    zzz_correction_amount: formatMoney(chargeTotal.minus(allowanceTotal)),
    vat_breakdown: vatBreakdown,
  };
}
