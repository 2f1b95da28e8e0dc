// The generated matrix shared by the property and round-trip tests.
import type { InvoiceContent } from '../../../commands/invoices/model.ts';
import { computeTotals } from '../../../commands/invoices/totals.ts';
import { generateInvoice } from './generate.ts';

/** Change the seed (UBL_SEED) to explore; a failure names its seed and index, which reproduce it. */
export const SEED = Number(process.env['UBL_SEED'] ?? 20250917);
export const MATRIX_SIZE = Number(process.env['UBL_CASES'] ?? 240);

export function matrix(): InvoiceContent[] {
  return Array.from({ length: MATRIX_SIZE }, (_, i) => generateInvoice(SEED, i));
}

/** What the matrix covers, so the test can prove it covers what it claims. */
export function coverage(docs: InvoiceContent[]): Record<string, number> {
  const count = (p: (c: InvoiceContent) => boolean) => docs.filter(p).length;
  const anyLine = (p: (l: InvoiceContent['lines'][number]) => boolean) => count((c) => c.lines.some(p));
  const totals = docs.map((c) => computeTotals(c));
  const withTotals = (p: (t: (typeof totals)[number]) => boolean) => totals.filter(p).length;
  return {
    invoices: count((c) => c.invoice_type === '380'),
    credit_notes: count((c) => c.invoice_type === '381'),
    rate_23: anyLine((l) => l.vat_category_code === 'S' && l.vat_rate === '23'),
    rate_19: anyLine((l) => l.vat_category_code === 'S' && l.vat_rate === '19'),
    rate_5: anyLine((l) => l.vat_category_code === 'S' && l.vat_rate === '5'),
    zero_rated_Z: anyLine((l) => l.vat_category_code === 'Z'),
    exempt_E: anyLine((l) => l.vat_category_code === 'E' && l.vat_exemption_reason_code !== null),
    reverse_charge_AE: anyLine((l) => l.vat_category_code === 'AE' && l.vat_exemption_reason_code === 'VATEX-EU-AE'),
    intra_community_K: anyLine((l) => l.vat_category_code === 'K' && l.vat_exemption_reason_code === 'VATEX-EU-IC'),
    not_subject_O: anyLine((l) => l.vat_category_code === 'O' && l.vat_exemption_reason_code === 'VATEX-EU-O'),
    not_subject_O_credit_note: count((c) => c.invoice_type === '381' && c.lines.some((l) => l.vat_category_code === 'O')),
    percentage_discount: anyLine((l) => l.discount_percentage !== null),
    amount_discount: anyLine((l) => l.discount_amount !== null),
    negative_quantity: anyLine((l) => l.quantity.startsWith('-')),
    czk: count((c) => c.currency_code === 'CZK'),
    czk_with_cz_iban: count((c) => c.currency_code === 'CZK' && (c.supplier_iban?.startsWith('CZ') ?? false)),
    without_iban: count((c) => c.supplier_iban === null),
    buyer_not_vat_registered: count((c) => c.buyer.vat_id === ''),
    one_line: count((c) => c.lines.length === 1),
    lines_200: count((c) => c.lines.length === 200),
    with_delivery_date: count((c) => c.delivery_date !== null),
    without_delivery_date: count((c) => c.delivery_date === null),
    with_variable_symbol: count((c) => c.variable_symbol !== null),
    without_variable_symbol: count((c) => c.variable_symbol === null),
    zzz_allowance: withTotals((t) => t.allowances_charges.some((ac) => ac.reason_code === 'ZZZ' && !ac.charge)),
    zzz_charge: withTotals((t) => t.allowances_charges.some((ac) => ac.reason_code === 'ZZZ' && ac.charge)),
    payable_rounding: withTotals((t) => t.payable_rounding_amount !== '0.00'),
  };
}
