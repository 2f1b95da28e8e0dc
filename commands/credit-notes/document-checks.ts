// What every credit-note document must show, for the unit and validation tests: totals that are the
// rows' sums to the cent, and lines and corrections that add up to them as EN16931 adds them up.
import { expect } from 'chai';
import type { Decimal } from 'decimal.js';
import { ZERO, decimal, formatMoney, sum } from '../invoices/money.ts';
import { bucketKey } from './bucket-key.ts';
import type { CreditNoteDocument } from './document.ts';
import type { CreditRow } from './model.ts';

const total = (values: Iterable<Decimal>) => formatMoney(sum(values));

export function expectDocumentOfRows(document: CreditNoteDocument, rows: readonly CreditRow[]): void {
  const { content, totals } = document;
  const of = (field: 'base' | 'vat' | 'gross', key?: string) => total(rows.filter((r) => key === undefined || bucketKey(r) === key).map((r) => decimal(r[field])));
  expect([totals.total_net, totals.total_vat, totals.total_gross, totals.amount_due], 'totals = Σ rows').to.deep.equal([of('base'), of('vat'), of('gross'), of('gross')]);
  expect(totals.payable_rounding_amount).to.equal('0.00');

  const keys = new Set(rows.map(bucketKey));
  expect(totals.vat_breakdown.map(bucketKey).sort(), 'one breakdown row per credited bucket').to.deep.equal([...keys].sort());
  for (const subtotal of totals.vat_breakdown) {
    const key = bucketKey(subtotal);
    expect([subtotal.taxable_amount, subtotal.tax_amount], `bucket ${key} = Σ its rows`).to.deep.equal([of('base', key), of('vat', key)]);
    // BR-S-08 and friends: the bucket's lines plus charges minus allowances are its taxable amount
    const lineNets = content.lines.flatMap((l, i) => (bucketKey(l) === key ? [decimal(totals.lines[i]!.line_net)] : []));
    const corrections = totals.allowances_charges.filter((ac) => bucketKey(ac) === key).map((ac) => (ac.charge ? decimal(ac.amount) : decimal(ac.amount).negated()));
    expect(total([...lineNets, ...corrections]), `bucket ${key}: lines + charges − allowances`).to.equal(subtotal.taxable_amount);
  }

  expect(content.lines.length, 'one line per row but rounding rows').to.equal(rows.filter((r) => r.kind !== 'rounding').length);
  expect(totals.lines.map((l) => l.line_number)).to.deep.equal(content.lines.map((l) => l.line_number));
  const lineExtension = sum(totals.lines.map((l) => decimal(l.line_net)));
  const allowances = sum(totals.allowances_charges.filter((ac) => !ac.charge).map((ac) => decimal(ac.amount)));
  const charges = sum(totals.allowances_charges.filter((ac) => ac.charge).map((ac) => decimal(ac.amount)));
  expect([totals.line_extension_amount, totals.allowance_total, totals.charge_total]).to.deep.equal([formatMoney(lineExtension), formatMoney(allowances), formatMoney(charges)]);
  expect(formatMoney(lineExtension.minus(allowances).plus(charges)), 'BR-CO-13').to.equal(totals.total_net);
  expect(totals.zzz_correction_amount).to.equal(formatMoney(charges.minus(allowances)));
  for (const ac of totals.allowances_charges) expect(decimal(ac.amount).greaterThan(ZERO), 'corrections are positive amounts').to.equal(true);
}
