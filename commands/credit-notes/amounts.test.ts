import { expect } from 'chai';
import { allowanceOf } from './allowance.ts';
import type { CreditLimitDetail } from './credit-limit.ts';
import type { CreditAmount, CreditNoteRequest } from './model.ts';
import { creditNoteRows } from './rows.ts';
import { issued, line, partial, refusal, rowsAfter } from './test-fixtures.ts';

describe('partial_credit and price_correction rows', () => {
  const invoice = issued([
    line(1, { unit_price: '100.00' }),
    line(2, { unit_price: '50.00', vat_rate: '5' }),
    line(3, { unit_price: '40.00', vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-132' }),
    line(4, { unit_price: '60.00', vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-135' }),
    line(5, { unit_price: '20.00', vat_rate: '0', vat_category_code: 'K', vat_exemption_reason_code: 'VATEX-EU-IC' }),
  ]);
  const rows = (...amounts: CreditAmount[]) => creditNoteRows(partial(...amounts), allowanceOf(invoice, []));
  const refused = (...amounts: CreditAmount[]): CreditLimitDetail[] => refusal(() => rows(...amounts));

  it('makes one amount row per rate named, split by rule 4', () => {
    expect(rows({ vat_rate: '23', gross: '12.30' }, { vat_rate: '5', gross: '10.00' })).to.deep.equal([
      { kind: 'amount', vat_rate: '23', vat_category_code: 'S', vat_exemption_reason_code: null, source_line_id: null, quantity: null, base: '10.00', vat: '2.30', gross: '12.30' },
      { kind: 'amount', vat_rate: '5', vat_category_code: 'S', vat_exemption_reason_code: null, source_line_id: null, quantity: null, base: '9.52', vat: '0.48', gross: '10.00' },
    ]);
  });

  it('price_correction makes the same rows as partial_credit', () => {
    const request: CreditNoteRequest = { reason: 'price_correction', amounts: [{ vat_rate: '23', gross: '12.30' }] };
    expect(creditNoteRows(request, allowanceOf(invoice, []))).to.deep.equal(rows({ vat_rate: '23', gross: '12.30' }));
  });

  it('vat_category_code defaults to S', () => {
    expect(rows({ vat_rate: '23', gross: '1.23' })[0]).to.include({ vat_category_code: 'S', vat_rate: '23' });
  });

  it('rule 5: a gross equal to what is left credits left base and VAT exactly', () => {
    // 0.01 and 0.02 split into base 0.01 + 0.02 and VAT 0.00, so 99.97 + 23.00 = 122.97 is left, which rule 4 would split 99.98 + 22.99
    const earlier = [partial({ vat_rate: '23', gross: '0.01' }), partial({ vat_rate: '23', gross: '0.02' })];
    expect(rowsAfter(invoice, earlier, partial({ vat_rate: '23', gross: '122.97' }))).to.deep.equal([
      { kind: 'amount', vat_rate: '23', vat_category_code: 'S', vat_exemption_reason_code: null, source_line_id: null, quantity: null, base: '99.97', vat: '23.00', gross: '122.97' },
    ]);
  });

  it('rule 6: the exemption code may be omitted when one subtotal exists at that category and rate', () => {
    expect(rows({ vat_rate: '0', vat_category_code: 'K', gross: '5.00' })[0]).to.include({ vat_exemption_reason_code: 'VATEX-EU-IC', base: '5.00', vat: '0.00' });
  });

  it('rule 6: with two subtotals at one rate under different codes, the named one is credited (codes compare upper-cased)', () => {
    expect(rows({ vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'vatex-eu-135', gross: '5.00' })[0]).to.include({ vat_exemption_reason_code: 'VATEX-EU-135' });
  });

  it('rule 6: omitting the code there gives vat_rate_not_on_invoice', () => {
    expect(refused({ vat_rate: '0', vat_category_code: 'E', gross: '5.00' })).to.deep.equal([{ rule: 'vat_rate_not_on_invoice', field: 'amounts[0].vat_exemption_reason_code' }]);
  });

  it('rule 6: an omitted code picks the subtotal that carries none', () => {
    const mixed = issued([line(1, { vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: null }), line(2, { vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-132' })]);
    const made = creditNoteRows(partial({ vat_rate: '0', vat_category_code: 'E', gross: '5.00' }), allowanceOf(mixed, []));
    expect(made[0]).to.include({ vat_exemption_reason_code: null });
  });

  it('vat_rate_not_on_invoice: a rate the invoice lacks', () => {
    expect(refused({ vat_rate: '19', gross: '1.00' })).to.deep.equal([{ rule: 'vat_rate_not_on_invoice', field: 'amounts[0].vat_rate' }]);
  });

  it('vat_rate_not_on_invoice: a category the invoice lacks at that rate', () => {
    expect(refused({ vat_rate: '0', vat_category_code: 'Z', gross: '1.00' })).to.deep.equal([{ rule: 'vat_rate_not_on_invoice', field: 'amounts[0].vat_category_code' }]);
  });

  it('vat_rate_not_on_invoice: an exemption code the invoice lacks', () => {
    expect(refused({ vat_rate: '0', vat_category_code: 'K', vat_exemption_reason_code: 'VATEX-EU-G', gross: '1.00' })).to.deep.equal([
      { rule: 'vat_rate_not_on_invoice', field: 'amounts[0].vat_exemption_reason_code' },
    ]);
  });

  it('vat_rate_repeated: a later entry resolving to a bucket already named ("23" and "23.00" are one)', () => {
    expect(refused({ vat_rate: '23', gross: '1.00' }, { vat_rate: '5', gross: '1.00' }, { vat_rate: '23.00', gross: '2.00' })).to.deep.equal([
      { rule: 'vat_rate_repeated', field: 'amounts[2]' },
    ]);
  });

  it('vat_rate_cap: a gross above the bucket\'s left_gross, with the bucket and what it has left', () => {
    expect(refused({ vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-132', gross: '40.01' })).to.deep.equal([
      { rule: 'vat_rate_cap', field: 'amounts[0].gross', vat_rate: '0', vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-132', left_base: '40.00', left_gross: '40.00' },
    ]);
  });

  it('vat_rate_cap counts what earlier credit notes took', () => {
    const error = refusal(() => rowsAfter(invoice, [partial({ vat_rate: '23', gross: '100.00' })], partial({ vat_rate: '23', gross: '23.01' })));
    expect(error).to.deep.equal([{ rule: 'vat_rate_cap', field: 'amounts[0].gross', vat_rate: '23', vat_category_code: 'S', vat_exemption_reason_code: null, left_base: '18.70', left_gross: '23.00' }]);
  });

  it('reports one entry per offending index, all at once, in index order', () => {
    expect(refused(
      { vat_rate: '19', gross: '1.00' },
      { vat_rate: '23', gross: '200.00' },
      { vat_rate: '5', gross: '1.00' },
      { vat_rate: '5', gross: '1.00' },
    ).map((d) => [d.rule, d.field])).to.deep.equal([
      ['vat_rate_not_on_invoice', 'amounts[0].vat_rate'],
      ['vat_rate_cap', 'amounts[1].gross'],
      ['vat_rate_repeated', 'amounts[3]'],
    ]);
  });
});
