import { expect } from 'chai';
import { invoiceLineId } from '../invoices/line-id.ts';
import { Dec } from '../invoices/money.ts';
import { DomainError } from '../shared/domain-error.ts';
import { allowanceOf } from './allowance.ts';
import { NOTHING_LEFT } from './creditability.ts';
import type { CreditRow } from './model.ts';
import { creditNoteRows } from './rows.ts';
import { credit, fullReversal, issued, line, partial, returned, rowsAfter } from './test-fixtures.ts';

const id = (n: number) => invoiceLineId('inv-1', n);
const total = (rows: CreditRow[], field: 'base' | 'vat' | 'gross') => rows.reduce((s, r) => s.plus(r[field]), new Dec(0)).toFixed(2);

describe('full_reversal rows', () => {
  const invoice = issued([
    line(1, { quantity: '2', unit_price: '50.00' }),
    line(2, { quantity: '3', unit_price: '0.03' }),
    line(3, { quantity: '1', unit_price: '10.00', vat_rate: '5', discount_amount: '1.00' }),
  ]);

  it('copies an uncredited invoice row for row', () => {
    const rows = rowsAfter(invoice, [], fullReversal);
    expect(rows.filter((r) => r.kind === 'copy').map((r) => [r.source_line_id, r.quantity, r.base, r.vat, r.gross])).to.deep.equal([
      [id(1), '2', '100.00', '23.00', '123.00'],
      [id(2), '3', '0.09', '0.02', '0.11'],
      [id(3), '1', '9.00', '0.45', '9.45'],
    ]);
  });

  it('an uncredited invoice\'s copies, with the buckets\' rounding parts, sum exactly to the invoice totals', () => {
    // two rows of 0.02 at 19 %: per line 0.00 VAT, per bucket 0.01, reconciled by a ZZZ allowance of 0.01
    const zzz = issued([...invoice.content.lines, line(4, { unit_price: '0.02', vat_rate: '19' }), line(5, { unit_price: '0.02', vat_rate: '19' })]);
    expect(zzz.totals.zzz_correction_amount).to.equal('-0.01');
    const rows = rowsAfter(zzz, [], fullReversal);
    expect(rows.filter((r) => r.kind === 'rounding').map((r) => [r.vat_rate, r.base, r.vat, r.gross])).to.deep.equal([['19', '-0.01', '0.01', '0.00']]);
    const { total_net, total_vat, total_gross } = zzz.totals;
    expect([total(rows, 'base'), total(rows, 'vat'), total(rows, 'gross')]).to.deep.equal([total_net, total_vat, total_gross]);
  });

  it('after earlier credit notes, one row per bucket for exactly what is left', () => {
    const rows = rowsAfter(invoice, [partial({ vat_rate: '23', gross: '10.00' }), returned({ source_line_id: id(3), quantity: '0.5' })], fullReversal);
    const left = credit(invoice, partial({ vat_rate: '23', gross: '10.00' }), returned({ source_line_id: id(3), quantity: '0.5' })).allowance.buckets;
    expect(rows).to.deep.equal(left.map((b) => ({
      kind: 'rest', vat_rate: b.vat_rate, vat_category_code: b.vat_category_code, vat_exemption_reason_code: b.vat_exemption_reason_code,
      source_line_id: null, quantity: null, base: b.left_base, vat: b.left_vat, gross: b.left_gross,
    })));
  });

  it('leaves every bucket at zero, and nothing more is creditable', () => {
    const { allowance } = credit(invoice, partial({ vat_rate: '5', gross: '1.00' }), fullReversal);
    expect(allowance.buckets.every((b) => b.left_base === '0.00' && b.left_vat === '0.00' && b.left_gross === '0.00')).to.equal(true);
    expect(allowance).to.deep.include({ creditable: false, refusal: NOTHING_LEFT, credited_gross: invoice.totals.total_gross });
  });

  it('a fully credited invoice refuses every reason with not_creditable', () => {
    const { allowance } = credit(invoice, partial({ vat_rate: '23', gross: '123.11' }, { vat_rate: '5', gross: '9.45' }));
    expect(allowance).to.deep.include({ left_gross: '0.00', creditable: false });
    expect(() => creditNoteRows(fullReversal, allowance)).to.throw(DomainError).with.property('code', 'not_creditable');
  });

  it('skips buckets with nothing left', () => {
    const rows = rowsAfter(invoice, [partial({ vat_rate: '5', gross: '9.45' })], fullReversal);
    expect(rows.map((r) => r.vat_rate)).to.deep.equal(['23']);
    expect(allowanceOf(invoice, []).buckets).to.have.length(2);
  });
});
