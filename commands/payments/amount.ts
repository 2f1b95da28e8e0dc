import { MAX_AMOUNT } from '../invoices/bounds.ts';
import { formatMoney, parseDecimal } from '../invoices/money.ts';
import { InvalidFields } from '../shared/invalid-fields.ts';

const problem = (msg: string, input: unknown) => new InvalidFields([{ loc: ['body', 'amount'], msg, type: 'value_error', input }]);

/**
 * The amount of a payment or refund, as stored: a positive decimal string with at most two
 * decimals, at most what an invoice total may be, written with exactly two ("100" → "100.00").
 * Otherwise 422 in the request-body shape, on `amount`.
 */
export function paymentAmount(amount: string): string {
  const value = parseDecimal(amount);
  if (value === null) throw problem('amount must be a decimal string such as "120.50"', amount);
  if (value.decimalPlaces() > 2) throw problem('amount has at most 2 decimal places', amount);
  if (!value.isPositive() || value.isZero()) throw problem('amount must be greater than 0 (undo a payment by reversing it)', amount);
  if (value.greaterThan(MAX_AMOUNT)) throw problem(`amount is at most ${MAX_AMOUNT.toFixed(2)}`, amount);
  return formatMoney(value);
}
