import { expect } from 'chai';
import { invoiceLineId } from '../invoices/line-id.ts';
import { allowanceOf } from './allowance.ts';
import { credit, issued, line, partial, refusal, returned, rowsAfter } from './test-fixtures.ts';

const id = (n: number) => invoiceLineId('inv-1', n);

describe('returned_goods rows (rule 11)', () => {
  const invoice = issued([
    line(1, { quantity: '3', unit_price: '3.33', discount_percentage: '5' }),
    line(2, { quantity: '10', unit_price: '2.00', vat_rate: '19' }),
    line(3, { quantity: '2.5', unit_code: 'HUR', unit_price: '40.00' }),
  ]);

  it('credits the returned quantity at the row\'s own price and rate', () => {
    expect(rowsAfter(invoice, [], returned({ source_line_id: id(2), quantity: '4' }))).to.deep.equal([
      { kind: 'return', vat_rate: '19', vat_category_code: 'S', vat_exemption_reason_code: null, source_line_id: id(2), quantity: '4', base: '8.00', vat: '1.52', gross: '9.52' },
    ]);
  });

  it('a discounted row returned in pieces credits exactly its line_net and line_vat (rounded on the cumulative quantity)', () => {
    // 3 × 3.33 = 9.99 less 5 % (0.50): line_net 9.49, line_vat 2.18
    const one = returned({ source_line_id: id(1), quantity: '1' });
    const { allowance, notes } = credit(invoice, one, one, one);
    expect(notes.map((n) => [n.rows[0]!.base, n.rows[0]!.vat])).to.deep.equal([['3.16', '0.73'], ['3.17', '0.72'], ['3.16', '0.73']]);
    expect(allowance.lines[0]).to.deep.include({ line_net: '9.49', line_vat: '2.18', returned_quantity: '3', left_quantity: '0', left_net: '0.00', left_vat: '0.00' });
  });

  it('fractional quantities return in fractional pieces', () => {
    const { allowance, notes } = credit(invoice, returned({ source_line_id: id(3), quantity: '0.75' }), returned({ source_line_id: id(3), quantity: '1.75' }));
    expect(notes.map((n) => n.rows[0]!.base)).to.deep.equal(['30.00', '70.00']);
    expect(allowance.lines[2]).to.deep.include({ returned_quantity: '2.5', left_quantity: '0' });
  });

  it('row_cap: a quantity above the row\'s left_quantity, with what is left', () => {
    const details = refusal(() => rowsAfter(invoice, [returned({ source_line_id: id(2), quantity: '7' })], returned({ source_line_id: id(2), quantity: '3.5' })));
    expect(details).to.deep.equal([{ rule: 'row_cap', field: 'lines[0].quantity', left_quantity: '3' }]);
  });

  it('row_cap: a row of negative quantity has nothing to return', () => {
    const negative = issued([line(1, { quantity: '5' }), line(2, { quantity: '-1', unit_price: '10.00' })]);
    const details = refusal(() => rowsAfter(negative, [], returned({ source_line_id: id(2), quantity: '1' })));
    expect(details).to.deep.equal([{ rule: 'row_cap', field: 'lines[0].quantity', left_quantity: '0' }]);
  });

  it('row_not_on_invoice: a source_line_id that is no row of the invoice', () => {
    const details = refusal(() => rowsAfter(invoice, [], returned({ source_line_id: invoiceLineId('other-invoice', 1), quantity: '1' })));
    expect(details).to.deep.equal([{ rule: 'row_not_on_invoice', field: 'lines[0].source_line_id' }]);
  });

  it('row_repeated: a row named twice', () => {
    const details = refusal(() => rowsAfter(invoice, [], returned({ source_line_id: id(2), quantity: '1' }, { source_line_id: id(2), quantity: '1' })));
    expect(details).to.deep.equal([{ rule: 'row_repeated', field: 'lines[1].source_line_id' }]);
  });

  it('vat_rate_cap on lines: the returned base or VAT above the bucket\'s left, at every index of that bucket', () => {
    const two = issued([line(1, { quantity: '2', unit_price: '10.00' }), line(2, { quantity: '2', unit_price: '10.00', vat_rate: '5' }), line(3, { quantity: '1', unit_price: '10.00' })]);
    const request = returned({ source_line_id: id(1), quantity: '1' }, { source_line_id: id(2), quantity: '1' }, { source_line_id: id(3), quantity: '1' });
    const details = refusal(() => rowsAfter(two, [partial({ vat_rate: '23', gross: '24.60' })], request));
    expect(details).to.deep.equal([
      { rule: 'vat_rate_cap', field: 'lines[0].quantity', left_base: '10.00', left_vat: '2.30', left_gross: '12.30' },
      { rule: 'vat_rate_cap', field: 'lines[2].quantity', left_base: '10.00', left_vat: '2.30', left_gross: '12.30' },
    ]);
  });

  it('one entry per offending index, all at once: a row over its own cap is left out of its bucket\'s sum', () => {
    const request = returned(
      { source_line_id: id(2), quantity: '11' },
      { source_line_id: 'nope', quantity: '1' },
      { source_line_id: id(1), quantity: '1' },
      { source_line_id: id(1), quantity: '1' },
    );
    expect(refusal(() => rowsAfter(invoice, [], request)).map((d) => [d.rule, d.field])).to.deep.equal([
      ['row_cap', 'lines[0].quantity'],
      ['row_not_on_invoice', 'lines[1].source_line_id'],
      ['row_repeated', 'lines[3].source_line_id'],
    ]);
  });

  it('the return that empties a bucket also credits its rounding part, so the bucket ends at zero', () => {
    // two rows of 0.02 at 23 %: lines say 0.02 + 0.02 gross, the bucket 0.03 base (ZZZ allowance −0.01) + 0.01 VAT
    const tiny = issued([line(1, { unit_price: '0.02' }), line(2, { unit_price: '0.02' })]);
    expect(allowanceOf(tiny, []).buckets[0]).to.deep.include({ base: '0.03', vat: '0.01', gross: '0.04' });
    const { allowance, notes } = credit(tiny, returned({ source_line_id: id(1), quantity: '1' }), returned({ source_line_id: id(2), quantity: '1' }));
    expect(notes[0]!.rows.map((r) => [r.kind, r.base, r.vat])).to.deep.equal([['return', '0.02', '0.00']]);
    expect(notes[1]!.rows.map((r) => [r.kind, r.base, r.vat, r.gross])).to.deep.equal([['return', '0.02', '0.00', '0.02'], ['rounding', '-0.01', '0.01', '0.00']]);
    expect(allowance.buckets[0]).to.deep.include({ left_base: '0.00', left_vat: '0.00', left_gross: '0.00' });
  });

  it('a free row left in the bucket does not hold the rounding part back, and it is credited once', () => {
    const tiny = issued([line(1, { unit_price: '0.02' }), line(2, { unit_price: '0.02' }), line(3, { item_name: 'Free sample', unit_price: '0.00' }), line(4, { vat_rate: '5' })]);
    const both = returned({ source_line_id: id(1), quantity: '1' }, { source_line_id: id(2), quantity: '1' });
    const { allowance, notes } = credit(tiny, both, returned({ source_line_id: id(3), quantity: '1' }));
    expect(notes[0]!.rows.map((r) => r.kind)).to.deep.equal(['return', 'return', 'rounding']);
    expect(notes[1]!.rows.map((r) => [r.kind, r.base, r.vat])).to.deep.equal([['return', '0.00', '0.00']]);
    expect(allowance.buckets[0]).to.deep.include({ left_base: '0.00', left_vat: '0.00', left_gross: '0.00' });
  });

  it('known limit: where the rounding part is negative, a return leaving a cent on the rows can be refused; all together fits', () => {
    // lines 0.26 net and 0.04 VAT per line; the bucket 0.24 + 0.06 (ZZZ allowance 0.02)
    const tiny = issued(['0.02', '0.02', '0.06', '0.02', '0.14'].map((price, i) => line(i + 1, { unit_price: price })));
    expect(allowanceOf(tiny, []).buckets[0]).to.deep.include({ base: '0.24', vat: '0.06' });
    const rest = [2, 3, 4, 5].map((n) => ({ source_line_id: id(n), quantity: '1' }));
    expect(refusal(() => rowsAfter(tiny, [], returned({ source_line_id: id(1), quantity: '0.5' }, ...rest))).map((d) => d.rule)).to.deep.equal(Array(5).fill('vat_rate_cap'));
    const { allowance } = credit(tiny, returned({ source_line_id: id(1), quantity: '1' }, ...rest));
    expect(allowance.buckets[0]).to.deep.include({ left_base: '0.00', left_vat: '0.00' });
  });

  it('returning everything in one credit note credits every bucket exactly', () => {
    const request = returned({ source_line_id: id(1), quantity: '3' }, { source_line_id: id(2), quantity: '10' }, { source_line_id: id(3), quantity: '2.5' });
    const { allowance } = credit(invoice, request);
    expect(allowance.buckets.map((b) => [b.left_base, b.left_vat, b.left_gross])).to.deep.equal([['0.00', '0.00', '0.00'], ['0.00', '0.00', '0.00']]);
    expect(allowance).to.deep.include({ credited_gross: allowance.total_gross, left_gross: '0.00' });
  });
});
