// The typesetter's rules without a PDF: which font draws each character, what is missing, where a
// line may break, and the order runs are drawn in (the Unicode bidirectional algorithm).
import { expect } from 'chai';
import { ClusterCutter } from '../../src/modules/invoice-pdf/render/clusters.ts';
import { pdfFonts } from '../../src/modules/invoice-pdf/render/fonts.ts';
import { visualRuns } from '../../src/modules/invoice-pdf/render/runs.ts';

describe('PDF typesetter', () => {
  const faces = pdfFonts().regular;
  const cutter = new ClusterCutter(faces);
  /** the runs of a one-line paragraph as drawn, left to right: [font, text, laid out whole (right to left by fontkit)] */
  const drawn = (text: string) => visualRuns(cutter.paragraph(text)).map((r) => [faces[r.face]!.name, r.text, r.whole]);
  const breaks = (text: string) => cutter.paragraph(text).map((c) => (c.breakBefore ? `|${c.text}` : c.text)).join('');

  it('Latin, Greek and Cyrillic stay in Noto Sans, one run', () => {
    expect(drawn('Kŕdeľ Ελληνικά Кириллица')).to.deep.equal([['regular', 'Kŕdeľ Ελληνικά Кириллица', false]]);
  });

  it('in a left-to-right sentence an Arabic and Hebrew stretch is drawn right to left: Hebrew leftmost, the number in its place, each script in its font', () => {
    // logical: Faktúra | شركة | 12 | , | חברה  → read from the right within the right-to-left stretch
    expect(drawn('Faktúra شركة 12, חברה')).to.deep.equal([
      ['regular', 'Faktúra ', false],
      ['regular-hebrew', 'חברה', true],
      ['regular-arabic', ' ,', false],
      ['regular-arabic', '12', false],
      ['regular-arabic', 'شركة ', true],
    ]);
  });

  it('a right-to-left paragraph mirrors its brackets and keeps Latin inside them left to right', () => {
    expect(drawn('(שלום)')).to.deep.equal([['regular-hebrew', 'שלום(', true], ['regular', ')', false]]);
    expect(drawn('שלום (ABC)')).to.deep.equal([['regular', '(', false], ['regular', 'ABC', false], ['regular-hebrew', 'שלום )', true]]);
  });

  it('a character no font has is U+FFFD with its code points missing; an invisible joiner is never missing; a letter with its mark is one character', () => {
    expect(cutter.paragraph('a😀\u200Db e\u0301').map((c) => [c.text, c.missing])).to.deep.equal([['a', []], ['\ufffd', [0x1f600]], ['b', []], [' ', []], ['e\u0301', []]]);
  });

  it('lines break after spaces, and between Chinese words but never before punctuation; Thai words are not cut', () => {
    expect(breaks('华为技术有限公司，你好 ok')).to.equal('华|为|技术|有限公司，|你好 |ok');
    expect(breaks('บริษัท น้ำดี จำกัด')).to.equal('บริษัท |น้ำดี |จำกัด');
    expect(breaks('Kŕdeľ šťastných ďatľov')).to.equal('Kŕdeľ |šťastných |ďatľov');
  });
});
