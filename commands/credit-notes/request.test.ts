import { expect } from 'chai';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { allowanceOf } from './allowance.ts';
import type { CreditNoteRequest } from './model.ts';
import { creditNoteRows } from './rows.ts';
import { issued, line } from './test-fixtures.ts';

describe('credit-note request numbers (request-body 422)', () => {
  const allowance = allowanceOf(issued([line(1)]), []);
  const problems = (request: CreditNoteRequest) => {
    try {
      creditNoteRows(request, allowance);
    } catch (error) {
      expect(error).to.be.instanceOf(InvalidFields);
      return (error as InvalidFields).problems.map((p) => [p.loc.join('.'), p.msg]);
    }
    return expect.fail('expected InvalidFields');
  };

  it('refuses a gross of 0, of three decimals, or not a decimal, each at its field', () => {
    expect(problems({ reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '0.00' }, { vat_rate: '23', gross: '1.005' }, { vat_rate: '23', gross: '1e3' }] })).to.deep.equal([
      ['body.amounts.0.gross', 'must be above 0'],
      ['body.amounts.1.gross', 'must have at most 2 decimal places'],
      ['body.amounts.2.gross', 'must be a decimal string'],
    ]);
  });

  it('refuses a negative or non-decimal rate and an unknown category', () => {
    expect(problems({ reason: 'price_correction', amounts: [{ vat_rate: '-5', gross: '1.00' }, { vat_rate: '23', vat_category_code: 'X' as 'S', gross: '1.00' }] })).to.deep.equal([
      ['body.amounts.0.vat_rate', 'must be a decimal string of at least 0'],
      ['body.amounts.1.vat_category_code', 'must be one of S, Z, E, AE, K, G, O, L, M'],
    ]);
  });

  it('refuses a returned quantity of 0 or below', () => {
    expect(problems({ reason: 'returned_goods', lines: [{ source_line_id: 'x', quantity: '0' }, { source_line_id: 'x', quantity: '-1' }] })).to.deep.equal([
      ['body.lines.0.quantity', 'must be above 0'],
      ['body.lines.1.quantity', 'must be above 0'],
    ]);
  });

  it('refuses an empty amounts[] or lines[]', () => {
    expect(problems({ reason: 'partial_credit', amounts: [] })).to.deep.equal([['body.amounts', 'name at least one amount']]);
    expect(problems({ reason: 'returned_goods', lines: [] })).to.deep.equal([['body.lines', 'name at least one line']]);
  });
});
