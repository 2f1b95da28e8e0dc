import { expect } from 'chai';
import { CSV_DIALECTS, amountCell, textCell } from './csv-cells.ts';
import { INVOICE_CSV_COLUMNS, invoiceCsvHeader, invoiceCsvRecord, type InvoiceCsvSource } from './invoice-register-csv.ts';

const { rfc4180, 'excel-sk': excelSk } = CSV_DIALECTS;

describe('CSV cells', () => {
  it('formula injection: a text cell starting with = + - @ (or tab, CR) is prefixed with an apostrophe', () => {
    for (const v of ['=SUM(A1)', '+421 900', '-5', '@cmd', '\tx', '\rx']) expect(textCell(v), JSON.stringify(v)).to.equal(`'${v}`);
  });

  it('other text stays as it is; null is an empty cell', () => {
    for (const v of ['Kŕdeľ s.r.o.', 'a=b', ' =x', '2026-01-05', '', "'quoted"]) expect(textCell(v)).to.equal(v);
    expect(textCell(null)).to.equal('');
  });

  it('amounts stay numeric: a negative amount keeps its minus, unescaped', () => {
    expect(amountCell('-12.50', rfc4180)).to.equal('-12.50');
    expect(amountCell('1234.56', rfc4180)).to.equal('1234.56');
  });

  it('the excel-sk dialect writes amounts with a decimal comma, still numbers', () => {
    expect(amountCell('-12.50', excelSk)).to.equal('-12,50');
    expect(excelSk).to.deep.include({ delimiter: ';', decimalMark: ',' });
    expect(rfc4180).to.deep.include({ delimiter: ',', decimalMark: '.' });
  });

  it('an "amount" that is not a plain decimal is text, and escaped like text', () => {
    expect(amountCell('=1+1', rfc4180)).to.equal("'=1+1");
    expect(amountCell('1e5', rfc4180)).to.equal('1e5');
  });

  it('the register record: totals are amounts, every other column is text', () => {
    expect(INVOICE_CSV_COLUMNS.filter((c) => c.kind === 'amount').map((c) => c.name)).to.deep.equal(['total_net', 'total_vat', 'total_gross']);
    const row: InvoiceCsvSource = {
      id: 'i1', invoice_number: '-1', invoice_type: '381', status: 'draft', issue_date: '2026-01-05', due_date: null, currency_code: 'EUR',
      supplier_name: '@me', buyer_name: '=HYPERLINK("x")', buyer_vat_id: '', total_net: '-10.00', total_vat: '-2.30', total_gross: '-12.30',
    };
    expect(invoiceCsvRecord(row, rfc4180)).to.deep.equal(['i1', "'-1", '381', 'draft', '2026-01-05', '', 'EUR', "'@me", `'=HYPERLINK("x")`, '', '-10.00', '-2.30', '-12.30']);
    expect(invoiceCsvHeader()[0]).to.equal('id');
  });
});
