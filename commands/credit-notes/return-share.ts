/**
 * What returning part of an invoice row credits (rule 11), discounted rows included.
 *
 * A row's line_net already has its discount taken off, and its line_vat is round2(line_net × rate).
 * A return credits the row's amounts in proportion to the quantity, rounded on the cumulative
 * quantity returned rather than on each piece:
 *
 *   credited net after the return = round-half-up(line_net × returned_quantity / quantity, 2)
 *   this return's net             = that − what earlier returns credited (line_net − left_net)
 *
 * and the same for VAT with line_vat and left_vat. So however a row is returned in pieces, the
 * pieces add up to exactly its line_net and line_vat once all of it is back (the last piece takes
 * exactly left_net and left_vat), and no piece is off its share by more than a cent.
 * Example: 3 × 3.33 less 5 % (line_net 9.49, line_vat 2.18 at 23 %) returned one at a time
 * credits net 3.16, 3.17, 3.16 and VAT 0.73, 0.72, 0.73.
 */
import type { Decimal } from 'decimal.js';
import { ZERO, decimal, round2 } from '../invoices/money.ts';
import type { AllowanceLine } from './model.ts';

export interface Share {
  net: Decimal;
  vat: Decimal;
}

/** The net and VAT that returning `quantity` more of the line credits; quantity ≤ left_quantity. */
export function returnShare(line: AllowanceLine, quantity: Decimal): Share {
  const whole = decimal(line.quantity);
  const after = decimal(line.returned_quantity).plus(quantity);
  const net = decimal(line.line_net);
  const vat = decimal(line.line_vat);
  if (after.equals(whole)) return { net: decimal(line.left_net), vat: decimal(line.left_vat) };
  const leftNet = decimal(line.left_net);
  const leftVat = decimal(line.left_vat);
  return {
    net: within(round2(net.times(after).dividedBy(whole)).minus(net.minus(leftNet)), leftNet),
    vat: within(round2(vat.times(after).dividedBy(whole)).minus(vat.minus(leftVat)), leftVat),
  };
}

/**
 * Between 0 and what is left. Only needed when an earlier return stopped counting (it failed or was
 * rejected) while a later one still counts: the later one was rounded against the earlier, so a
 * small next piece could otherwise come out a cent below 0.
 */
function within(share: Decimal, left: Decimal): Decimal {
  if (share.isNegative()) return ZERO;
  return share.greaterThan(left) ? left : share;
}
