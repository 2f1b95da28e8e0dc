import { expect } from 'chai';
import { BULK_IMPORT_LIMITS } from '../../commands/bulk-import/limits.ts';
import { detectDelimiter, readCsv } from '../../src/modules/bulk-import/csv-reader.ts';

describe('bulk import: reading the CSV (csv-parse, streaming)', () => {
  it('takes ; or , as the separator, whichever the header holds more of', () => {
    expect(detectDelimiter('a;b;c\r\n1,5;2;3')).to.equal(';');
    expect(detectDelimiter('a,b,c\n"1;2",2,3')).to.equal(',');
  });

  it('numbers records as a spreadsheet numbers rows: a quoted line break stays in its row, blank lines count', async () => {
    const read = await readCsv('a;b\r\n1;"x\r\ny"\r\n\r\n2;"q""z"\r\n');
    expect('records' in read && read.records).to.deep.equal([
      { row: 1, cells: ['a', 'b'] }, { row: 2, cells: ['1', 'x\r\ny'] }, { row: 3, cells: [''] }, { row: 4, cells: ['2', 'q"z'] },
    ]);
  });

  it('keeps a quote inside an unquoted cell as text, and takes rows shorter than the header', async () => {
    const read = await readCsv('a,b,c\n5" disk,2\n');
    expect('records' in read && read.records[1]).to.deep.equal({ row: 2, cells: ['5" disk', '2'] });
  });

  it('finds a quote never closed, at its row', async () => {
    const read = await readCsv('a;b\n1;2\n3;"open\n4;5\n');
    expect('errors' in read && read.errors.map((e) => [e.row, e.column])).to.deep.equal([[3, null]]);
  });

  it(`stops past ${BULK_IMPORT_LIMITS.maxDataRows} data rows`, async () => {
    const text = `a;b\n${'1;2\n'.repeat(BULK_IMPORT_LIMITS.maxDataRows + 1)}`;
    const read = await readCsv(text);
    expect('errors' in read && read.errors[0]).to.include({ row: BULK_IMPORT_LIMITS.maxDataRows + 2, column: null });
    const fits = await readCsv(`a;b\n${'1;2\n'.repeat(BULK_IMPORT_LIMITS.maxDataRows)}\n\n`);
    expect('records' in fits).to.equal(true);
  });
});
