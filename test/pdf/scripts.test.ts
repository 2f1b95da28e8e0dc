// Every script a European invoice may carry prints with an embedded font and reads back (pdfjs-dist)
// as written; what no font draws is drawn as U+FFFD and reported, never silently dropped.
import { expect } from 'chai';
import { printedDocument, type PrintableInvoice } from '../../commands/exports/printed-document.ts';
import { renderPdf } from '../../src/modules/invoice-pdf/render/layout.ts';
import { readPdf, unwrapped } from './extract.ts';
import { EMOJI, PANGRAM, printableInvoice, SCRIPTS } from './samples.ts';

const created = new Date('2026-03-05T10:15:00.000Z');
const render = (p: PrintableInvoice) => renderPdf(printedDocument(p), { created });
const samples = Object.entries(SCRIPTS);

/** An invoice with `name` as the buyer's name, an item's name and the note. */
function invoiceNaming(name: string): PrintableInvoice {
  const invoice = printableInvoice(1, { note: name });
  invoice.content.buyer = { ...invoice.content.buyer, name };
  invoice.content.lines = invoice.content.lines.map((l) => ({ ...l, item_name: name }));
  return invoice;
}

describe('PDF rendering of every script', function () {
  this.timeout(60_000);

  for (const [script, text] of samples) {
    it(`${script}: the buyer's name, an item's name and the note read back as written, nothing replaced`, async () => {
      const { bytes, missingGlyphs } = await render(invoiceNaming(text));
      const page = (await readPdf(bytes)).pages[0]!;
      expect(missingGlyphs).to.deep.equal([]);
      expect(page.text).not.to.include('\ufffd');
      expect(page.items.map((i) => i.str), 'the note, one line').to.include(text);
      expect(unwrapped(page.text).split(text), 'buyer, item and note').to.have.length(4);
    });
  }

  it('all of them in one document: each reads back; each font a subset, embedded; Latin stays in Noto Sans', async () => {
    const invoice = printableInvoice(samples.length, { note: samples.map(([, t]) => t).join('\n') });
    invoice.content.lines = invoice.content.lines.map((l, i) => ({ ...l, item_name: samples[i]![1] }));
    const { bytes, missingGlyphs } = await render(invoice);
    expect(missingGlyphs).to.deep.equal([]);
    const { pages, fonts } = await readPdf(bytes);
    const text = unwrapped(pages.map((p) => p.text).join('\n'));
    for (const [script, sample] of samples) expect(text.split(sample), script).to.have.length(3); // item and note
    expect(text).to.include(PANGRAM);
    expect(fonts.every((f) => f.embedded)).to.equal(true);
    const names = fonts.map((f) => f.name.replace(/^[A-Z]{6}\+/, '')).sort();
    expect(names).to.include.members(['NotoSans-Regular', 'NotoSans-Bold', 'IBMPlexSansArabic-Regular', 'NotoSansHebrew-Regular', 'NotoSansThai-Regular', 'NotoSansSC-Regular']);
    // subsets: the 10 MB Chinese font adds a few kilobytes for a few characters
    expect(bytes.length).to.be.below(120_000);
  });

  it('right to left: an Arabic or Hebrew phrase with a number and Latin in a Slovak sentence reads back in logical order', async () => {
    const note = 'Objednávka 2026/15: شركة الأمل 120 ks – חברת השלום 30 ks';
    const { bytes } = await render(printableInvoice(1, { note }));
    const text = unwrapped((await readPdf(bytes)).pages[0]!.text);
    expect(text).to.include('Objednávka 2026/15:');
    expect(text).to.include('شركة الأمل');
    expect(text).to.include('חברת השלום');
    expect(text).to.include('120 ks');
  });

  it('an emoji (no embedded font draws it) is drawn as U+FFFD, reads back as U+FFFD, and is reported; the text around it stays', async () => {
    const { bytes, missingGlyphs } = await render(invoiceNaming(`Ďakujeme ${EMOJI} za spoluprácu`));
    expect(missingGlyphs).to.deep.equal([EMOJI.codePointAt(0)]);
    const text = unwrapped((await readPdf(bytes)).pages[0]!.text);
    expect(text.split('Ďakujeme \ufffd za spoluprácu')).to.have.length(4);
  });

  it('an emoji sequence (man, ZWJ, woman, ZWJ, girl) is one replacement, reporting its visible code points', async () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    const { bytes, missingGlyphs } = await render(invoiceNaming(`A ${family} B`));
    expect(missingGlyphs).to.deep.equal([0x1f467, 0x1f468, 0x1f469]);
    const text = unwrapped((await readPdf(bytes)).pages[0]!.text);
    expect(text).to.include('A \ufffd B');
    expect(text).not.to.include('\ufffd\ufffd');
  });

  it('cuts never split a character: an endless name of emoji and Chinese is cut with an ellipsis between whole characters', async () => {
    const invoice = invoiceNaming(`${'华为😀'.repeat(400)}`);
    const { bytes, missingGlyphs } = await render(invoice);
    expect(missingGlyphs).to.deep.equal([0x1f600]); // no lone surrogate reported
    const text = (await readPdf(bytes)).pages.map((p) => p.text).join('\n');
    expect(text).to.include('…');
    expect(text).not.to.match(/[\ud800-\udfff]/);
  });
});
