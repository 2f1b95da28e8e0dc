import { expect } from 'chai';
import { decodeCsvFile } from './encoding.ts';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('bulk import: the file is UTF-8 text', () => {
  it('reads UTF-8 with or without a BOM, dropping the BOM', () => {
    expect(decodeCsvFile(bytes('a;b\r\nľ;š\r\n'))).to.deep.equal({ text: 'a;b\r\nľ;š\r\n' });
    expect(decodeCsvFile(bytes([0xef, 0xbb, 0xbf], 'a;b\r\n'))).to.deep.equal({ text: 'a;b\r\n' });
  });

  it('refuses Windows-1250, naming the line of the first byte that is not UTF-8', () => {
    const decoded = decodeCsvFile(bytes('a;b\r\nx;y\r\nOdberate', [0xbe], ' s.r.o.;1\r\n'));
    expect('error' in decoded && decoded.error).to.include({ row: 3, column: null });
    expect('error' in decoded && decoded.error.message).to.include('not UTF-8').and.include('CSV UTF-8');
  });

  it('refuses UTF-16 (Excel\'s "Unicode text") and binary files', () => {
    const utf16 = decodeCsvFile(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a;b', 'utf16le')]));
    expect('error' in utf16 && utf16.error.message).to.include('UTF-16');
    const nul = decodeCsvFile(bytes('a;b\r\n', [0x00], 'x'));
    expect('error' in nul && nul.error).to.include({ row: 2 });
  });
});
