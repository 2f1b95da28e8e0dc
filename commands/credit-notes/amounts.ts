/**
 * The rows of a partial_credit or price_correction: one `amount` row per amounts[] entry, each in
 * the VAT bucket it names (rule 6), split into base and VAT by rules 4 and 5, never above what the
 * bucket has left. Every offending entry is reported at once (CreditLimitExceeded).
 */
import { decimal, formatMoney } from '../invoices/money.ts';
import { bucketKey, bucketOf } from './bucket-key.ts';
import { CreditLimitExceeded, type CreditLimitDetail } from './credit-limit.ts';
import type { Allowance, AllowanceBucket, CreditAmount, CreditRow } from './model.ts';
import { splitWithin } from './split.ts';

export function amountRows(amounts: readonly CreditAmount[], allowance: Pick<Allowance, 'buckets'>): CreditRow[] {
  const rows: CreditRow[] = [];
  const details: CreditLimitDetail[] = [];
  const named = new Set<string>();
  amounts.forEach((amount, i) => {
    const found = resolveBucket(amount, allowance.buckets);
    if (typeof found === 'string') {
      details.push({ rule: 'vat_rate_not_on_invoice', field: `amounts[${i}].${found}` });
      return;
    }
    const key = bucketKey(found);
    if (named.has(key)) {
      details.push({ rule: 'vat_rate_repeated', field: `amounts[${i}]` });
      return;
    }
    named.add(key);
    const gross = decimal(amount.gross);
    const left = { base: decimal(found.left_base), vat: decimal(found.left_vat), gross: decimal(found.left_gross) };
    if (gross.greaterThan(left.gross)) {
      details.push({ rule: 'vat_rate_cap', field: `amounts[${i}].gross`, ...bucketOf(found), left_base: found.left_base, left_gross: found.left_gross });
      return;
    }
    const { base, vat } = splitWithin(gross, decimal(found.vat_rate), left);
    rows.push({ kind: 'amount', ...bucketOf(found), source_line_id: null, quantity: null, base: formatMoney(base), vat: formatMoney(vat), gross: formatMoney(gross) });
  });
  if (details.length > 0) throw new CreditLimitExceeded(details);
  return rows;
}

/**
 * The bucket an amount names (rule 6), or the field that names what the invoice lacks. Category
 * defaults to S. A named exemption code must match one (compared upper-cased); an omitted one
 * picks the bucket at that category and rate without a code, else the only bucket there, else
 * none (two buckets under different codes: the caller must name one).
 */
function resolveBucket(amount: CreditAmount, buckets: readonly AllowanceBucket[]): AllowanceBucket | 'vat_rate' | 'vat_category_code' | 'vat_exemption_reason_code' {
  const rate = decimal(amount.vat_rate);
  const category = amount.vat_category_code ?? 'S';
  const code = amount.vat_exemption_reason_code?.trim() ? amount.vat_exemption_reason_code.trim().toUpperCase() : null;
  const atRate = buckets.filter((b) => decimal(b.vat_rate).equals(rate));
  if (atRate.length === 0) return 'vat_rate';
  const here = atRate.filter((b) => b.vat_category_code === category);
  if (here.length === 0) return 'vat_category_code';
  const codeOf = (b: AllowanceBucket) => b.vat_exemption_reason_code?.trim().toUpperCase() || null;
  if (code !== null) return here.find((b) => codeOf(b) === code) ?? 'vat_exemption_reason_code';
  return here.find((b) => codeOf(b) === null) ?? (here.length === 1 ? here[0]! : 'vat_exemption_reason_code');
}
