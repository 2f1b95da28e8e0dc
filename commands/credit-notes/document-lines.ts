/**
 * The line of a credit note that a row becomes (every kind but `rounding`, which no line carries).
 *
 * - `copy`: the invoice line as it was (item, quantity, unit, price, rate, discount), so its
 *   line_net is the row's base.
 * - `return`: the invoice line's item at its own price and rate, for the returned quantity. The
 *   row's base is the returned share of the line's line_net (return-share.ts), so the discount is
 *   restated to make the line come to exactly that: the line's own percentage when it does (e.g.
 *   returning 3 of 3 pieces, or a piece whose share rounds as the percentage does), else the money
 *   amount round2(quantity × price) − base. When the share is above round2(quantity × price) (a
 *   cent or two, from rounding on the cumulative quantity of a price with more than two decimals)
 *   no discount can reach it: the line states quantity × price undiscounted and the document's
 *   rounding correction carries the difference (document-totals.ts).
 * - `amount` and `rest`: one line of quantity 1 (C62) at the row's base as price, named by the
 *   reason and bucket (document-texts.ts). A negative base (a rest of a bucket whose invoice lines
 *   were negative) is quantity −1 at the positive price: BR-27 forbids a negative price.
 *
 * Every line's amounts come from computeLine, as the invoice's do, so R120 (net = quantity × price −
 * discount) and R040 (a percentage's amount) hold as they hold on invoices. line_vat is the row's
 * VAT: what the credit note credits, not a per-line recomputation.
 */
import { ZERO, decimal, formatMoney, round2 } from '../invoices/money.ts';
import type { InvoiceLine, LineAmounts } from '../invoices/model.ts';
import { computeLine } from '../invoices/totals.ts';
import { amountItemName, restItemName } from './document-texts.ts';
import type { CreditReason, CreditRow } from './model.ts';

export interface DocumentLine {
  line: InvoiceLine;
  amounts: LineAmounts;
}

/** The line of a row; `source` is the invoice line a copy or return row names. */
export function documentLine(row: CreditRow, source: InvoiceLine | null, reason: CreditReason, lineNumber: number): DocumentLine {
  const line = lineOf(row, source, reason, lineNumber);
  const money = computeLine(line, `credit-note line ${lineNumber}`);
  const vat = decimal(row.vat, 'row vat');
  return {
    line,
    amounts: {
      line_number: lineNumber,
      line_gross_before_discount: formatMoney(money.before),
      discount: formatMoney(money.discount),
      line_net: formatMoney(money.net),
      line_vat: formatMoney(vat),
      line_gross_amount: formatMoney(money.net.plus(vat)),
    },
  };
}

function lineOf(row: CreditRow, source: InvoiceLine | null, reason: CreditReason, lineNumber: number): InvoiceLine {
  switch (row.kind) {
    case 'copy':
      return { ...required(source, row), line_number: lineNumber };
    case 'return':
      return returnLine(row, required(source, row), lineNumber);
    case 'amount':
      return moneyLine(row, amountItemName(reason, row), lineNumber);
    case 'rest':
      return moneyLine(row, restItemName(row), lineNumber);
    case 'rounding':
      throw new RangeError('a rounding row has no line: the totals carry it');
  }
}

function returnLine(row: CreditRow, source: InvoiceLine, lineNumber: number): InvoiceLine {
  if (row.quantity === null) throw new RangeError(`the return row of ${row.source_line_id ?? 'no line'} has no quantity`);
  const base = decimal(row.base, 'row base');
  const own: InvoiceLine = { ...source, line_number: lineNumber, quantity: row.quantity };
  // the line's own percentage, when it lands on the share; an amount discount is for the whole line, never a part
  if (source.discount_percentage !== null && !present(source.discount_amount) && computeLine(own).net.equals(base)) return own;
  const before = round2(decimal(row.quantity, 'row quantity').times(decimal(source.unit_price, 'unit_price')));
  const discount = before.minus(base);
  return {
    ...own,
    discount_percentage: null,
    discount_amount: discount.greaterThan(ZERO) ? formatMoney(discount) : null,
  };
}

function moneyLine(row: CreditRow, itemName: string, lineNumber: number): InvoiceLine {
  const base = decimal(row.base, 'row base');
  return {
    line_number: lineNumber,
    item_name: itemName,
    quantity: base.isNegative() ? '-1' : '1',
    unit_code: 'C62',
    unit_price: formatMoney(base.abs()),
    vat_rate: row.vat_rate,
    vat_category_code: row.vat_category_code,
    vat_exemption_reason_code: row.vat_exemption_reason_code,
    discount_percentage: null,
    discount_amount: null,
  };
}

function required(source: InvoiceLine | null, row: CreditRow): InvoiceLine {
  if (source === null) throw new RangeError(`the ${row.kind} row names line ${row.source_line_id ?? '(none)'}, which the invoice lacks`);
  return source;
}

function present(value: string | null): value is string {
  return value !== null && value.trim() !== '';
}
