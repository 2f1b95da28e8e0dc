/**
 * The largest numbers an invoice may carry. Every accepted invoice must fit every read model and
 * the UBL, so the write side refuses what a real invoice never holds, before anything is written:
 *
 *   quantity     |quantity| ≤ 999 999 999.999999        (9 integer digits)
 *   unit_price   unit_price ≤ 999 999 999 999.999999    (12 integer digits)
 *   every amount |amount| ≤ 999 999 999 999.99         (under a trillion in the invoice currency)
 *
 * "Every amount" is each line's quantity × unit_price, discount, net, VAT and gross, each VAT
 * breakdown's taxable and tax amount, and each document total, as totals.ts computes them. With
 * them under 10^12: the invoice register's numeric columns hold them many times over (they were
 * numeric(18,2), up to 10^16), decimal.js computes them exactly (40 significant digits), and a cent
 * stays exact even for a client that parses money into a double (10^14 cents < 2^53). The bounds
 * on the two inputs alone cannot promise this (999 999 999 × 999 999 999 999 is 10^21), hence the
 * bound on what they come to, whatever the number of lines.
 */
import type { Decimal } from 'decimal.js';
import { InvalidFields, type FieldProblem } from '../shared/invalid-fields.ts';
import type { InvoiceContent, InvoiceTotals } from './model.ts';
import { Dec, parseDecimal } from './money.ts';
import { computeTotals } from './totals.ts';

export const MAX_QUANTITY = new Dec('999999999.999999');
export const MAX_UNIT_PRICE = new Dec('999999999999.999999');
export const MAX_AMOUNT = new Dec('999999999999.99');

const beyond = (value: Decimal, max: Decimal) => value.abs().greaterThan(max);

/**
 * Throws InvalidFields (422 with `loc`) when the content carries a number beyond the bounds;
 * answers the totals it computed to check them (null when a decimal is not valid), so the
 * decider does not compute them again.
 */
export function checkBounds(content: InvoiceContent): InvoiceTotals | null {
  const problems: FieldProblem[] = [];
  const problem = (loc: (string | number)[], msg: string, input: unknown) => problems.push({ loc: ['body', ...loc], msg, type: 'value_error', input });

  content.lines.forEach((line, i) => {
    const quantity = parseDecimal(line.quantity);
    if (quantity && beyond(quantity, MAX_QUANTITY)) {
      problem(['lines', i, 'quantity'], `quantity must lie within ±${MAX_QUANTITY.toFixed()} (at most 9 integer digits)`, line.quantity);
    }
    const price = parseDecimal(line.unit_price);
    if (price && beyond(price, MAX_UNIT_PRICE)) {
      problem(['lines', i, 'unit_price'], `unit_price must be at most ${MAX_UNIT_PRICE.toFixed()} (12 integer digits)`, line.unit_price);
    }
  });
  if (problems.length > 0) throw new InvalidFields(problems);

  const totals = totalsOf(content);
  if (!totals) return null;
  totals.lines.forEach((amounts, i) => {
    const named = Object.entries({
      'quantity × unit_price': amounts.line_gross_before_discount, discount: amounts.discount, line_net: amounts.line_net,
      line_vat: amounts.line_vat, line_gross_amount: amounts.line_gross_amount,
    });
    const over = named.find(([, amount]) => beyond(new Dec(amount), MAX_AMOUNT));
    if (over) problem(['lines', i], `the line's ${over[0]} comes to ${over[1]}, beyond the largest amount an invoice carries (±${MAX_AMOUNT.toFixed()})`, content.lines[i]);
  });
  if (problems.length > 0) throw new InvalidFields(problems);

  const documentAmounts: [string, string][] = [
    ['line_extension_amount', totals.line_extension_amount], ['allowance_total', totals.allowance_total], ['charge_total', totals.charge_total],
    ['total_net', totals.total_net], ['total_vat', totals.total_vat], ['total_gross', totals.total_gross],
    ['payable_rounding_amount', totals.payable_rounding_amount], ['amount_due', totals.amount_due],
    ...totals.vat_breakdown.flatMap((s): [string, string][] => [['vat_breakdown taxable_amount', s.taxable_amount], ['vat_breakdown tax_amount', s.tax_amount]]),
  ];
  const over = documentAmounts.find(([, amount]) => beyond(new Dec(amount), MAX_AMOUNT));
  if (over) {
    problem(['lines'], `the invoice's ${over[0]} comes to ${over[1]}, beyond the largest amount an invoice carries (±${MAX_AMOUNT.toFixed()}); split it into several invoices`, over[1]);
    throw new InvalidFields(problems);
  }
  return totals;
}

/** The totals, or null when a decimal is not valid: the rules refuse that one (SK-J-02). */
function totalsOf(content: InvoiceContent) {
  try {
    return computeTotals(content);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}
