import { expect } from 'chai';
import { groupRows, locate } from './groups.ts';
import { readHeader, type CsvRecord, type Header } from './header.ts';

const COLUMNS = ['invoice_ref', 'issue_date', 'buyer_name', 'buyer_vat_id', 'customer_id', 'note', 'item_name', 'quantity', 'unit_price', 'vat_rate', 'discount_percentage'];
const header = (() => {
  const read = readHeader({ row: 1, cells: COLUMNS });
  if (!('header' in read)) throw new Error('header');
  return read.header as Header;
})();
const rows = (...cells: string[][]): CsvRecord[] => cells.map((c, i) => ({ row: i + 2, cells: c }));
const group = (...cells: string[][]) => groupRows('job-1', header, rows(...cells));

describe('bulk import: rows become invoices', () => {
  it('makes one invoice of the rows sharing an invoice_ref, adjacent or not, lines in file order, groups in order of first appearance', () => {
    const { groups, dataRows } = group(
      ['B', '2026-01-02', 'Beta', '', '', '', 'b1', '1', '1', '23', ''],
      ['A', '2026-01-01', 'Alfa', 'SK2020000004', '', '', 'a1', '1,5', '10,00', '23', '10'],
      ['B', '', '', '', '', '', 'b2', '2', '2', '5', ''],
    );
    expect(dataRows).to.equal(3);
    expect(groups.map((g) => [g.index, g.ref, g.rows])).to.deep.equal([[0, 'B', [2, 4]], [1, 'A', [3]]]);
    expect(groups[0]!.request).to.deep.equal({
      issue_date: '2026-01-02', buyer: { name: 'Beta', vat_id: '' },
      lines: [{ item_name: 'b1', quantity: '1', unit_price: '1', vat_rate: '23' }, { item_name: 'b2', quantity: '2', unit_price: '2', vat_rate: '5' }],
    });
    expect(groups[1]!.request['lines']).to.deep.equal([{ item_name: 'a1', quantity: '1.5', unit_price: '10.00', vat_rate: '23', discount_percentage: '10' }]);
  });

  it('takes invoice-level values from any row; a repeated value must be the same, and an empty cell keeps what was given', () => {
    const same = group(['A', '2026-01-01', 'Alfa', '', '', '', 'x', '1', '1', '23', ''], ['A', '2026-01-01', 'Alfa', '', '', '', 'y', '1', '1', '23', '']);
    expect(same.groups[0]!.errors).to.deep.equal([]);
    const later = group(['A', '', '', '', '', '', 'x', '1', '1', '23', ''], ['A', '2026-01-01', 'Alfa', '', '', '', 'y', '1', '1', '23', '']);
    expect(later.groups[0]!.request).to.include({ issue_date: '2026-01-01' });
    expect(later.groups[0]!.origins['issue_date']).to.equal(3);
    const differs = group(['A', '2026-01-01', 'Alfa', '', '', '', 'x', '1', '1', '23', ''], ['A', '2026-01-02', 'Alfa', '', '', '', 'y', '1', '1', '23', '']);
    expect(differs.groups[0]!.errors.map((e) => [e.row, e.column])).to.deep.equal([[3, 'issue_date']]);
  });

  it('keeps a quoted cell\'s line breaks, trims the ends, and skips blank rows without counting them', () => {
    const { groups, dataRows } = group(['A', '2026-01-01', 'Alfa', '', '', '  riadok 1\nriadok 2  ', 'x', '1', '1', '23', ''], ['', '', '', '', '', '', '', '', '', '', ''], ['']);
    expect(dataRows).to.equal(1);
    expect(groups[0]!.request['note']).to.equal('riadok 1\nriadok 2');
  });

  it('refuses a row without invoice_ref, a cell that does not parse, and a cell beyond the header', () => {
    const { groups } = group(
      ['', '2026-01-01', 'Alfa', '', '', '', 'x', '1', '1', '23', ''],
      ['A', '2026-01-01', 'Alfa', '', '', '', 'x', 'jeden', '1', '23', ''],
      ['B', '2026-01-01', 'Alfa', '', '', '', 'x', '1', '1', '23', '', 'extra'],
    );
    expect(groups.map((g) => g.errors.map((e) => [e.row, e.column]))).to.deep.equal([[[2, 'invoice_ref']], [[3, 'quantity']], [[4, null]]]);
  });

  it('gives each invoice an id from the job and its ref: the same on every run, another in another job', () => {
    const first = group(['A', '2026-01-01', 'Alfa', '', '', '', 'x', '1', '1', '23', '']).groups[0]!;
    const again = group(['A', '2026-01-01', 'Alfa', '', '', '', 'x', '1', '1', '23', '']).groups[0]!;
    const other = groupRows('job-2', header, rows(['A', '2026-01-01', 'Alfa', '', '', '', 'x', '1', '1', '23', ''])).groups[0]!;
    expect(first.invoiceId).to.equal(again.invoiceId).and.not.equal(other.invoiceId);
  });

  it('points a refusal of the request back at its row and column', () => {
    const [g] = group(
      ['A', '2026-01-01', '', '', '', '', 'x', '1', '1', '23', ''],
      ['A', '', 'Alfa', 'SK1', '', '', 'y', '1', '1', '0', ''],
    ).groups;
    expect(locate(g!, ['body', 'lines', 1, 'vat_rate'])).to.deep.equal({ row: 3, column: 'vat_rate' });
    expect(locate(g!, 'lines[0].quantity')).to.deep.equal({ row: 2, column: 'quantity' });
    expect(locate(g!, 'buyer.vat_id')).to.deep.equal({ row: 3, column: 'buyer_vat_id' });
    expect(locate(g!, ['issue_date'])).to.deep.equal({ row: 2, column: 'issue_date' });
    expect(locate(g!, ['buyer'])).to.deep.equal({ row: 3, column: 'buyer_name' });
    expect(locate(g!, [])).to.deep.equal({ row: 2, column: null });
  });
});
