/**
 * The allowance of an invoice: what it comes to per VAT bucket and per line, what the credit notes
 * that count against it have credited, and what is left. A pure function of the invoice and those
 * credit notes' rows, so the decider and the read model compute the same thing.
 *
 * - Buckets are the invoice's VAT breakdown: base = taxable amount (its ZZZ correction included),
 *   vat = tax amount, gross = base + vat. Every row credits its bucket: left = bucket − Σ rows.
 * - Lines are the invoice's lines with their line_net, line_vat and line_gross_amount. Only
 *   `return` rows shrink a line (returned_quantity, left_net, left_vat); the spec says so, and so a
 *   full_reversal's copies leave lines as they were (the invoice is voided once it is issued).
 * - A line of zero or negative quantity cannot be returned: its left_quantity is 0.
 * - total_gross is the invoice's total_gross (BT-112, Σ bucket gross), without the payable
 *   rounding amount, which no bucket holds.
 */
import type { Decimal } from 'decimal.js';
import type { KnownInvoice } from '../invoices/decider.ts';
import { invoiceLineId } from '../invoices/line-id.ts';
import { ZERO, decimal, formatDecimal, formatMoney, sum } from '../invoices/money.ts';
import { bucketKey } from './bucket-key.ts';
import { NOTHING_LEFT, invoiceRefusal } from './creditability.ts';
import type { Allowance, AllowanceBucket, AllowanceLine, CreditedNote, CreditRow } from './model.ts';

interface Credited {
  base: Decimal;
  vat: Decimal;
  gross: Decimal;
}

interface Returned {
  quantity: Decimal;
  net: Decimal;
  vat: Decimal;
}

export function allowanceOf(invoice: KnownInvoice, credited: readonly Pick<CreditedNote, 'rows'>[]): Allowance {
  const rows = credited.flatMap((note) => note.rows);
  const byBucket = new Map<string, Credited>();
  const byLine = new Map<string, Returned>();
  for (const row of rows) {
    const key = bucketKey(row);
    const bucket = byBucket.get(key) ?? { base: ZERO, vat: ZERO, gross: ZERO };
    byBucket.set(key, { base: bucket.base.plus(decimal(row.base)), vat: bucket.vat.plus(decimal(row.vat)), gross: bucket.gross.plus(decimal(row.gross)) });
    if (row.kind === 'return') countReturn(byLine, row);
  }

  const buckets = invoice.totals.vat_breakdown.map((subtotal): AllowanceBucket => {
    const key = bucketKey(subtotal);
    const done = byBucket.get(key) ?? { base: ZERO, vat: ZERO, gross: ZERO };
    byBucket.delete(key);
    const base = decimal(subtotal.taxable_amount);
    const vat = decimal(subtotal.tax_amount);
    const gross = base.plus(vat);
    return {
      vat_rate: subtotal.vat_rate, vat_category_code: subtotal.vat_category_code, vat_exemption_reason_code: subtotal.vat_exemption_reason_code,
      base: formatMoney(base), vat: formatMoney(vat), gross: formatMoney(gross),
      credited_base: formatMoney(done.base), credited_gross: formatMoney(done.gross),
      left_base: formatMoney(base.minus(done.base)), left_vat: formatMoney(vat.minus(done.vat)), left_gross: formatMoney(gross.minus(done.gross)),
    };
  });
  // a row outside every bucket means rows and invoice disagree: a bug, never something to show
  if (byBucket.size > 0) throw new RangeError(`credited rows name VAT buckets the invoice lacks: ${[...byBucket.keys()].join(', ')}`);

  const amounts = new Map(invoice.totals.lines.map((l) => [l.line_number, l]));
  const lines = invoice.content.lines.map((line): AllowanceLine => {
    const id = invoiceLineId(invoice.invoice_id, line.line_number);
    const a = amounts.get(line.line_number);
    if (!a) throw new RangeError(`line ${line.line_number} has no computed amounts`);
    const returned = byLine.get(id) ?? { quantity: ZERO, net: ZERO, vat: ZERO };
    byLine.delete(id);
    const quantity = decimal(line.quantity);
    const left = quantity.greaterThan(ZERO) ? quantity.minus(returned.quantity) : ZERO;
    return {
      id, line_number: line.line_number, item_name: line.item_name, unit_code: line.unit_code, unit_price: line.unit_price, quantity: line.quantity,
      vat_rate: line.vat_rate, vat_category_code: line.vat_category_code, vat_exemption_reason_code: line.vat_exemption_reason_code,
      discount_percentage: line.discount_percentage, discount_amount: line.discount_amount,
      line_net: a.line_net, line_vat: a.line_vat, line_gross: a.line_gross_amount,
      returned_quantity: formatDecimal(returned.quantity), left_quantity: formatDecimal(left),
      left_net: formatMoney(decimal(a.line_net).minus(returned.net)), left_vat: formatMoney(decimal(a.line_vat).minus(returned.vat)),
    };
  });
  if (byLine.size > 0) throw new RangeError(`returned rows name lines the invoice lacks: ${[...byLine.keys()].join(', ')}`);

  const total = decimal(invoice.totals.total_gross);
  const creditedGross = sum(buckets.map((b) => decimal(b.credited_gross)));
  const refusal = invoiceRefusal(invoice) ?? (buckets.some((b) => decimal(b.left_gross).greaterThan(ZERO)) ? null : NOTHING_LEFT);
  return {
    invoice_id: invoice.invoice_id, currency_code: invoice.content.currency_code, creditable: refusal === null, refusal,
    total_gross: formatMoney(total), credited_gross: formatMoney(creditedGross), left_gross: formatMoney(total.minus(creditedGross)),
    buckets, lines,
  };
}

function countReturn(byLine: Map<string, Returned>, row: CreditRow): void {
  if (row.source_line_id === null || row.quantity === null) throw new RangeError('a return row names no line or quantity');
  const line = byLine.get(row.source_line_id) ?? { quantity: ZERO, net: ZERO, vat: ZERO };
  byLine.set(row.source_line_id, { quantity: line.quantity.plus(decimal(row.quantity)), net: line.net.plus(decimal(row.base)), vat: line.vat.plus(decimal(row.vat)) });
}
