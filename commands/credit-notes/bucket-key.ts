import { decimal } from '../invoices/money.ts';
import { vatRowOf } from '../invoices/totals.ts';
import type { VatBucketKey } from './model.ts';

/**
 * The key of the VAT bucket a line, breakdown row or credit row falls in, as the invoice totals
 * group them: rates by value ("23" = "23.00"), exemption codes upper-cased and trimmed.
 */
export function bucketKey(of: VatBucketKey): string {
  return vatRowOf(of, decimal(of.vat_rate, 'vat_rate')).key;
}

/** The bucket fields of anything that names one, for a row or a refusal. */
export function bucketOf(of: VatBucketKey): VatBucketKey {
  return { vat_rate: of.vat_rate, vat_category_code: of.vat_category_code, vat_exemption_reason_code: of.vat_exemption_reason_code };
}
