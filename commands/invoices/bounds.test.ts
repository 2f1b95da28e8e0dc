import { expect } from 'chai';
import { specFor } from '../shared/given.ts';
import { InvalidFields, type FieldProblem } from '../shared/invalid-fields.ts';
import { MAX_AMOUNT, checkBounds } from './bounds.ts';
import { invoiceDecider } from './decider.ts';
import type { InvoiceContent, InvoiceLine } from './model.ts';
import { content, create, created } from './test-fixtures.ts';

const given = specFor(invoiceDecider);

const base = content.lines[0]!;
const withLines = (...lines: Partial<InvoiceLine>[]): InvoiceContent => ({
  ...content,
  lines: lines.map((over, i) => ({ ...base, line_number: i + 1, ...over })),
});
const problemsOf = (c: InvoiceContent): FieldProblem[] => {
  try {
    checkBounds(c);
    return [];
  } catch (error) {
    if (error instanceof InvalidFields) return error.problems;
    throw error;
  }
};
const locs = (c: InvoiceContent) => problemsOf(c).map((p) => p.loc);

describe('invoice bounds', () => {
  it('accepts the largest numbers a real invoice holds', () => {
    expect(locs(withLines({ quantity: '999999999.999999', unit_price: '1' }))).to.deep.equal([]);
    expect(locs(withLines({ quantity: '1', unit_price: '813008130081.29' }))).to.deep.equal([]); // gross 999 999 999 999.98 at 23 %
    expect(locs(withLines({ quantity: '-999999999', unit_price: '0.01' }))).to.deep.equal([]);
  });

  it('refuses a quantity or unit price beyond its digits, naming the field', () => {
    expect(locs(withLines({ quantity: '1000000000', unit_price: '0.000001' }))).to.deep.equal([['body', 'lines', 0, 'quantity']]);
    expect(locs(withLines({}, { quantity: '-1000000000', unit_price: '0.000001' }))).to.deep.equal([['body', 'lines', 1, 'quantity']]);
    expect(locs(withLines({ unit_price: '1000000000000' }))).to.deep.equal([['body', 'lines', 0, 'unit_price']]);
  });

  it("refuses the issue's poison line: within each field's digits, but its amount does not fit a read model", () => {
    const problems = problemsOf(withLines({ quantity: '100000000', unit_price: '100000000', vat_rate: '23' }));
    expect(problems.map((p) => p.loc)).to.deep.equal([['body', 'lines', 0]]);
    expect(problems[0]?.msg).to.match(/quantity × unit_price comes to 10000000000000000\.00/);
  });

  it('refuses a line whose gross (net + VAT) goes beyond the largest amount', () => {
    expect(locs(withLines({ quantity: '1', unit_price: '900000000000' }))).to.deep.equal([['body', 'lines', 0]]);
  });

  it('refuses a document whose totals go beyond the largest amount, however many lines it takes (200+)', () => {
    const lines = Array.from({ length: 250 }, () => ({ quantity: '1', unit_price: '4000000000' })); // 10^12 net in all
    const problems = problemsOf(withLines(...lines));
    expect(problems.map((p) => p.loc)).to.deep.equal([['body', 'lines']]);
    expect(problems[0]?.msg).to.match(/line_extension_amount comes to 1000000000000\.00/);
  });

  it('refuses a VAT group beyond the largest amount even when returns bring the total back under it', () => {
    const c = withLines({ quantity: '1', unit_price: '600000000000' }, { quantity: '1', unit_price: '600000000000' }, { quantity: '-1', unit_price: '600000000000', vat_rate: '5' });
    expect(locs(c)).to.deep.equal([['body', 'lines']]);
  });

  it('leaves a number that is not a decimal to the rules (SK-J-02)', () => {
    expect(locs(withLines({ quantity: 'many' }))).to.deep.equal([]);
  });

  it('the decider refuses out-of-bounds content on create and on replace, with InvalidFields', () => {
    const poison = withLines({ quantity: '100000000', unit_price: '100000000', vat_rate: '23' });
    const outOfBounds = (e: InvalidFields) => expect(e.problems.map((p) => p.loc)).to.deep.equal([['body', 'lines', 0]]);
    given([]).when({ ...create, content: poison }).thenThrows(InvalidFields, outOfBounds);
    const update = { type: 'UpdateInvoice', invoice_id: 'i1', scope: { organisationId: 'o1', companyId: 'c1' }, updated_by: 'k1', content: poison, code_lists: create.code_lists, at: create.at } as const;
    given([created]).when(update).thenThrows(InvalidFields, outOfBounds);
    expect(MAX_AMOUNT.toFixed()).to.equal('999999999999.99');
  });
});
