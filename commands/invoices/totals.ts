/**
 * The money of an invoice, by EN16931's rules. Pure: content in, totals out.
 *
 * Lines:
 *   before   = round2(quantity × unit_price)
 *   discount = discount_amount, or round2(before × discount_percentage / 100), or 0
 *   line_net = before − discount                                              (BT-131)
 *   line_vat = round2(line_net × rate / 100); line_gross_amount = line_net + line_vat
 *
 * VAT breakdown (BG-23), one group per (vat_category_code, vat_rate, vat_exemption_reason_code),
 * ordered by category (S, Z, E, AE, K, G, O, L, M), then rate descending, then exemption code:
 *   taxable = Σ line_net + charges − allowances of the group                   (BT-116)
 *   tax     = round2(taxable × rate / 100)                                    (BT-117, BR-CO-17)
 * total_net = Σ line_net − allowances + charges (BT-109), total_vat = Σ tax (BT-110),
 * total_gross = total_net + total_vat (BT-112), amount_due = total_gross + payable_rounding (BT-115).
 *
 * zzz_correction_amount, our definition of the spec's "document-level allowance/charge with reason
 * code ZZZ reconciling the VAT-inclusive total with the net-based calculation":
 *  - The VAT-inclusive total is Σ line_gross_amount: what a buyer adds up from the lines, whose VAT
 *    is rounded per line. The net-based calculation is EN16931's: VAT rounded once per group.
 *  - The two differ only inside a group of two or more lines with a non-zero rate, when per-line
 *    and per-group rounding disagree (e.g. two lines of 0.02 at 23 %: lines say 0.02 + 0.02 = 0.04
 *    gross, the group says 0.04 + 0.01 = 0.05). A single line, a 0 % group, or lines whose VAT
 *    roundings cancel out never produce one.
 *  - Then the group gets a document-level charge (lines add up to more) or allowance (less) with
 *    reason_code 'ZZZ', reason 'Rounding correction', in the group's category/rate/exemption, of
 *    the smallest cent amount that makes the group's taxable + tax equal its lines' gross sum.
 *  - At some rates one cent of net moves net + VAT by 0 or 2 cents, so no cent amount may hit it.
 *    Then the closest one is taken (on a tie the smaller, which may be none at all) and what is
 *    left goes into payable_rounding_amount (BT-114).
 *  - So amount_due always equals Σ line_gross_amount, and the VAT stays EN16931's per group.
 *  zzz_correction_amount = Σ ZZZ charges − Σ ZZZ allowances, signed, "0.00" when there is none.
 *
 * The content carries no other document-level allowances or charges, so the ZZZ ones are all.
 * Decimal strings are expected valid (rules.ts reports bad ones); an invalid one throws RangeError.
 */
import type { Decimal } from 'decimal.js';
import {
  VAT_CATEGORY_CODES,
  type DocumentAllowanceCharge,
  type InvoiceContent,
  type InvoiceLine,
  type InvoiceTotals,
  type LineAmounts,
  type VatCategoryCode,
  type VatSubtotal,
} from './model.ts';
import { CENT, HUNDRED, ZERO, decimal, formatDecimal, formatMoney, percentOf, round2, sum } from './money.ts';

export const ZZZ_REASON_CODE = 'ZZZ';
export const ZZZ_REASON = 'Rounding correction';

interface LineMoney {
  before: Decimal;
  discount: Decimal;
  net: Decimal;
  vat: Decimal;
  gross: Decimal;
}

/** The amounts of one line; `at` names the line in an error, e.g. "lines[2]". */
export function computeLine(line: InvoiceLine, at = `line ${line.line_number}`): LineMoney {
  const quantity = decimal(line.quantity, `${at}.quantity`);
  const price = decimal(line.unit_price, `${at}.unit_price`);
  const rate = decimal(line.vat_rate, `${at}.vat_rate`);
  const before = round2(quantity.times(price));
  let discount = ZERO;
  if (present(line.discount_amount)) discount = round2(decimal(line.discount_amount, `${at}.discount_amount`));
  else if (present(line.discount_percentage)) {
    discount = percentOf(before, decimal(line.discount_percentage, `${at}.discount_percentage`));
  }
  const net = before.minus(discount);
  const vat = percentOf(net, rate);
  return { before, discount, net, vat, gross: net.plus(vat) };
}

/** The VAT breakdown row (BG-23) of a line: its category, rate and exemption reason code; `key` names the row. */
export interface VatRow {
  key: string;
  category: VatCategoryCode;
  rate: Decimal;
  exemption: string | null;
}

/**
 * The row a line falls in, given its parsed rate. VATEX codes compare upper-cased (BR-CL-22), so
 * "vatex-eu-ic" and "VATEX-EU-IC" are one row, and rates by value, so "0" and "0.00" are one too.
 */
export function vatRowOf(line: Pick<InvoiceLine, 'vat_category_code' | 'vat_exemption_reason_code'>, rate: Decimal): VatRow {
  const exemption = present(line.vat_exemption_reason_code) ? line.vat_exemption_reason_code.trim().toUpperCase() : null;
  const category = line.vat_category_code;
  return { key: `${category}|${formatDecimal(rate)}|${exemption ?? ''}`, category, rate, exemption };
}

interface Group {
  category: VatCategoryCode;
  rate: Decimal;
  exemption: string | null;
  net: Decimal;
  gross: Decimal;
}

/**
 * The totals depend on the lines alone. The rules (BR-CO-25's amount due) and the decider both
 * need them, for the same lines, so they are computed once per lines array. Lines and totals are
 * never mutated, so the answer stays a pure function of its argument.
 */
const computed = new WeakMap<InvoiceContent['lines'], InvoiceTotals>();

export function computeTotals(content: InvoiceContent): InvoiceTotals {
  const known = computed.get(content.lines);
  if (known) return known;
  const totals = computeTotalsNow(content);
  computed.set(content.lines, totals);
  return totals;
}

function computeTotalsNow(content: Pick<InvoiceContent, 'lines'>): InvoiceTotals {
  const lines: LineAmounts[] = [];
  const groups = new Map<string, Group>();
  content.lines.forEach((line, i) => {
    const money = computeLine(line, `lines[${i}]`);
    lines.push({
      line_number: line.line_number,
      line_gross_before_discount: formatMoney(money.before),
      discount: formatMoney(money.discount),
      line_net: formatMoney(money.net),
      line_vat: formatMoney(money.vat),
      line_gross_amount: formatMoney(money.gross),
    });
    const { key, category, rate, exemption } = vatRowOf(line, decimal(line.vat_rate, `lines[${i}].vat_rate`));
    const group = groups.get(key) ?? { category, rate, exemption, net: ZERO, gross: ZERO };
    group.net = group.net.plus(money.net);
    group.gross = group.gross.plus(money.gross);
    groups.set(key, group);
  });

  const breakdown: VatSubtotal[] = [];
  const corrections: DocumentAllowanceCharge[] = [];
  let rounding = ZERO;
  for (const group of [...groups.values()].sort(byCategoryThenRate)) {
    const { correction, remainder } = reconcile(group.net, group.rate, group.gross);
    const taxable = group.net.plus(correction);
    breakdown.push({
      vat_category_code: group.category,
      vat_rate: formatDecimal(group.rate),
      vat_exemption_reason_code: group.exemption,
      taxable_amount: formatMoney(taxable),
      tax_amount: formatMoney(percentOf(taxable, group.rate)),
    });
    if (!correction.isZero()) {
      corrections.push({
        charge: correction.isPositive(),
        reason_code: ZZZ_REASON_CODE,
        reason: ZZZ_REASON,
        amount: formatMoney(correction.abs()),
        vat_category_code: group.category,
        vat_rate: formatDecimal(group.rate),
        vat_exemption_reason_code: group.exemption,
      });
    }
    rounding = rounding.plus(remainder);
  }

  const amountOf = (c: DocumentAllowanceCharge) => decimal(c.amount);
  const lineExtension = sum(lines.map((l) => decimal(l.line_net)));
  const allowanceTotal = sum(corrections.filter((c) => !c.charge).map(amountOf));
  const chargeTotal = sum(corrections.filter((c) => c.charge).map(amountOf));
  const totalNet = lineExtension.minus(allowanceTotal).plus(chargeTotal);
  const totalVat = sum(breakdown.map((s) => decimal(s.tax_amount)));
  const totalGross = totalNet.plus(totalVat);
  return {
    lines,
    line_extension_amount: formatMoney(lineExtension),
    allowance_total: formatMoney(allowanceTotal),
    charge_total: formatMoney(chargeTotal),
    allowances_charges: corrections,
    total_net: formatMoney(totalNet),
    total_vat: formatMoney(totalVat),
    total_gross: formatMoney(totalGross),
    payable_rounding_amount: formatMoney(rounding),
    amount_due: formatMoney(totalGross.plus(rounding)),
    // only ZZZ corrections exist, so their signed sum is charges − allowances
    zzz_correction_amount: formatMoney(chargeTotal.minus(allowanceTotal)),
    vat_breakdown: breakdown,
  };
}

/**
 * The signed cent correction c of a group's taxable amount so that (net + c) + VAT(net + c) equals
 * the lines' gross sum, and whatever no cent amount can reach. net + VAT(net) grows monotonically
 * with net by 1 or 2 cents per cent (rate ≤ 100 %), so the answer lies within a cent or two of
 * difference / (1 + rate): a small window around it is searched exhaustively.
 */
function reconcile(net: Decimal, rate: Decimal, linesGross: Decimal): { correction: Decimal; remainder: Decimal } {
  const groupGross = (taxable: Decimal) => taxable.plus(percentOf(taxable, rate));
  const difference = linesGross.minus(groupGross(net));
  if (difference.isZero()) return { correction: ZERO, remainder: ZERO };
  const estimate = round2(difference.dividedBy(HUNDRED.plus(rate).dividedBy(HUNDRED)));
  let best = { correction: ZERO, remainder: difference };
  for (let step = -3; step <= 3; step++) {
    const correction = estimate.plus(CENT.times(step));
    const remainder = linesGross.minus(groupGross(net.plus(correction)));
    const closer = remainder.abs().comparedTo(best.remainder.abs());
    if (closer < 0 || (closer === 0 && correction.abs().lessThan(best.correction.abs()))) {
      best = { correction, remainder };
    }
  }
  return best;
}

function byCategoryThenRate(a: Group, b: Group): number {
  const byCategory = VAT_CATEGORY_CODES.indexOf(a.category) - VAT_CATEGORY_CODES.indexOf(b.category);
  if (byCategory !== 0) return byCategory;
  const byRate = b.rate.comparedTo(a.rate);
  if (byRate !== 0) return byRate;
  const [x, y] = [a.exemption ?? '', b.exemption ?? ''];
  return x < y ? -1 : x > y ? 1 : 0;
}

function present(value: string | null): value is string {
  return value !== null && value.trim() !== '';
}
