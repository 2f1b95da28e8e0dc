import { expect } from 'chai';
import { invoiceLineId } from '../invoices/line-id.ts';
import { stableUuid } from '../shared/stable-id.ts';
import { allowanceOf } from './allowance.ts';
import { NOTHING_LEFT } from './creditability.ts';
import { credit, fullReversal, issued, line, partial, returned } from './test-fixtures.ts';

describe('credit-note allowance', () => {
  const invoice = issued([
    line(1, { quantity: '2', unit_price: '50.00' }),
    line(2, { quantity: '4', unit_price: '10.00', vat_rate: '19', discount_percentage: '10' }),
    line(3, { unit_price: '30.00', vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-AE' }),
  ]);
  const id = (n: number) => invoiceLineId('inv-1', n);

  it('shows the invoice per VAT bucket and per line, nothing credited yet', () => {
    const a = allowanceOf(invoice, []);
    expect(a).to.deep.include({ invoice_id: 'inv-1', currency_code: 'EUR', creditable: true, refusal: null, total_gross: '195.84', credited_gross: '0.00', left_gross: '195.84' });
    expect(a.buckets).to.deep.equal([
      { vat_rate: '23', vat_category_code: 'S', vat_exemption_reason_code: null, base: '100.00', vat: '23.00', gross: '123.00', credited_base: '0.00', credited_gross: '0.00', left_base: '100.00', left_vat: '23.00', left_gross: '123.00' },
      { vat_rate: '19', vat_category_code: 'S', vat_exemption_reason_code: null, base: '36.00', vat: '6.84', gross: '42.84', credited_base: '0.00', credited_gross: '0.00', left_base: '36.00', left_vat: '6.84', left_gross: '42.84' },
      { vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-AE', base: '30.00', vat: '0.00', gross: '30.00', credited_base: '0.00', credited_gross: '0.00', left_base: '30.00', left_vat: '0.00', left_gross: '30.00' },
    ]);
    expect(a.lines[1]).to.deep.equal({
      id: id(2), line_number: 2, item_name: 'Item 2', unit_code: 'C62', unit_price: '10.00', quantity: '4', vat_rate: '19', vat_category_code: 'S',
      vat_exemption_reason_code: null, discount_percentage: '10', discount_amount: null, line_net: '36.00', line_vat: '6.84', line_gross: '42.84',
      returned_quantity: '0', left_quantity: '4', left_net: '36.00', left_vat: '6.84',
    });
  });

  it('line ids are the ids invoice reads show (stable per invoice and line number)', () => {
    expect(allowanceOf(invoice, []).lines.map((l) => l.id)).to.deep.equal(['1', '2', '3'].map((n) => stableUuid('inv-1', 'line', n)));
  });

  it('partial_credit and price_correction reduce only the bucket, never a line', () => {
    const { allowance } = credit(invoice, partial({ vat_rate: '23', gross: '12.30' }), { reason: 'price_correction', amounts: [{ vat_rate: '19', gross: '1.19' }] });
    expect(allowance.buckets[0]).to.deep.include({ credited_base: '10.00', credited_gross: '12.30', left_base: '90.00', left_vat: '20.70', left_gross: '110.70' });
    expect(allowance.buckets[1]).to.deep.include({ credited_base: '1.00', credited_gross: '1.19', left_base: '35.00', left_vat: '6.65', left_gross: '41.65' });
    expect(allowance.lines.map((l) => [l.returned_quantity, l.left_quantity, l.left_net])).to.deep.equal([['0', '2', '100.00'], ['0', '4', '36.00'], ['0', '1', '30.00']]);
    expect(allowance).to.deep.include({ credited_gross: '13.49', left_gross: '182.35' });
  });

  it('a line shrinks through returned_goods naming it, and so does its bucket', () => {
    const { allowance } = credit(invoice, returned({ source_line_id: id(2), quantity: '1' }));
    expect(allowance.lines[1]).to.deep.include({ returned_quantity: '1', left_quantity: '3', left_net: '27.00', left_vat: '5.13' });
    expect(allowance.buckets[1]).to.deep.include({ credited_base: '9.00', credited_gross: '10.71', left_base: '27.00', left_vat: '5.13', left_gross: '32.13' });
  });

  it('a full_reversal row for row empties every bucket but leaves the lines (only returns shrink them)', () => {
    const { allowance } = credit(invoice, fullReversal);
    expect(allowance.buckets.map((b) => [b.left_base, b.left_vat, b.left_gross])).to.deep.equal([['0.00', '0.00', '0.00'], ['0.00', '0.00', '0.00'], ['0.00', '0.00', '0.00']]);
    expect(allowance.lines.map((l) => l.left_quantity)).to.deep.equal(['2', '4', '1']);
    expect(allowance).to.deep.include({ credited_gross: '195.84', left_gross: '0.00', creditable: false, refusal: NOTHING_LEFT });
  });

  it('a row of zero or negative quantity has nothing to return', () => {
    const a = allowanceOf(issued([line(1, { quantity: '3' }), line(2, { quantity: '-1' })]), []);
    expect(a.lines.map((l) => [l.quantity, l.left_quantity, l.left_net])).to.deep.equal([['3', '3', '300.00'], ['-1', '0', '-100.00']]);
  });

  it('refuses rows that name a bucket the invoice lacks: rows and invoice disagree', () => {
    const row = { kind: 'amount' as const, vat_rate: '5', vat_category_code: 'S' as const, vat_exemption_reason_code: null, source_line_id: null, quantity: null, base: '1.00', vat: '0.05', gross: '1.05' };
    expect(() => allowanceOf(invoice, [{ rows: [row] }])).to.throw(RangeError, /VAT buckets the invoice lacks/);
  });
});
