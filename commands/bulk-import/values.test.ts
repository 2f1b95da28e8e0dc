import { expect } from 'chai';
import { parseDate, parseDecimal } from './values.ts';

describe('bulk import: cell values as spreadsheets write them', () => {
  it('reads a decimal comma or a decimal point, and digit groups separated by spaces', () => {
    const ok = (cell: string) => parseDecimal(cell);
    expect(ok('1,5')).to.deep.equal({ ok: true, value: '1.5' });
    expect(ok('1.5')).to.deep.equal({ ok: true, value: '1.5' });
    expect(ok(' -2 ')).to.deep.equal({ ok: true, value: '-2' });
    expect(ok('1 200,50')).to.deep.equal({ ok: true, value: '1200.50' });
    expect(ok('1\u00a0200,50')).to.deep.equal({ ok: true, value: '1200.50' }); // Excel's no-break space
    expect(ok('12\u202f345')).to.deep.equal({ ok: true, value: '12345' });
  });

  it('refuses a value with both a point and a comma instead of guessing which is the decimal separator', () => {
    for (const cell of ['1.200,50', '1,200.50']) {
      const parsed = parseDecimal(cell);
      expect(parsed.ok).to.equal(false);
      expect(!parsed.ok && parsed.message).to.include('both a point and a comma');
    }
  });

  it('refuses what is not a number', () => {
    for (const cell of ['desať', '1,2,3', '1e3', '--1', ',5', '12 €']) expect(parseDecimal(cell).ok, cell).to.equal(false);
  });

  it('reads dates as YYYY-MM-DD or D.M.YYYY (Slovak Excel), and nothing else', () => {
    expect(parseDate('2026-03-15')).to.deep.equal({ ok: true, value: '2026-03-15' });
    expect(parseDate('15.3.2026')).to.deep.equal({ ok: true, value: '2026-03-15' });
    expect(parseDate('5. 1. 2026')).to.deep.equal({ ok: true, value: '2026-01-05' });
    expect(parseDate('05.01.2026')).to.deep.equal({ ok: true, value: '2026-01-05' });
    for (const cell of ['3/15/2026', '15.3.26', '2026-3-15', 'marec']) expect(parseDate(cell).ok, cell).to.equal(false);
  });
});
