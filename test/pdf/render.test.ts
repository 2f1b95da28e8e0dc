// The PDF renderer as a reader of its output sees it: text extracted with pdfjs-dist, fonts,
// pages, positions, and the same bytes for the same version.
import { expect } from 'chai';
import { printedDocument, type PrintableInvoice } from '../../commands/exports/printed-document.ts';
import { PdfCache } from '../../src/modules/invoice-pdf/render/cache.ts';
import { createPdfRenderer } from '../../src/modules/invoice-pdf/render/index.ts';
import { renderPdf } from '../../src/modules/invoice-pdf/render/layout.ts';
import { readPdf, unwrapped } from './extract.ts';
import { PANGRAM, printableCreditNote, printableInvoice } from './samples.ts';

const created = new Date('2026-03-05T10:15:00.000Z');
const render = async (p: PrintableInvoice) => (await renderPdf(printedDocument(p), { created })).bytes;
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('PDF rendering', function () {
  this.timeout(60_000);

  it('the Slovak pangram in an item name, a party name and the note comes out of pdfjs-dist exactly', async () => {
    const pdf = await readPdf(await render(printableInvoice(1)));
    const page = pdf.pages[0]!;
    // the note has room for it on one line: one text item, character for character
    expect(page.items.map((i) => i.str)).to.include(PANGRAM);
    // the buyer's name and the item's name wrap; read across the line breaks, each is there as written
    expect(occurrences(unwrapped(page.text), PANGRAM)).to.equal(3);
    expect(page.text).not.to.include('\ufffd');
  });

  it('embeds every font it uses (Noto Sans subsets, TrueType); no standard PDF font', async () => {
    const bytes = await render(printableInvoice(40));
    const { fonts } = await readPdf(bytes);
    expect(fonts.map((f) => f.name).sort()).to.satisfy((names: string[]) => names.length === 2 && names.every((n) => /^[A-Z]{6}\+NotoSans-(Regular|Bold)$/.test(n)));
    expect(fonts.every((f) => f.embedded)).to.equal(true);
    const raw = bytes.toString('latin1');
    expect(occurrences(raw, '/Type /FontDescriptor')).to.equal(2);
    expect(occurrences(raw, '/FontFile2')).to.equal(2);
    expect(raw).not.to.match(/\/Subtype \/Type1\b/);
  });

  it('is deterministic: the same document and version give the same bytes; another version time other bytes', async () => {
    const a = await render(printableInvoice(10));
    await render(printableCreditNote()); // fonts and caches shared with other documents change nothing
    const b = await render(printableInvoice(10));
    expect(Buffer.compare(a, b)).to.equal(0);
    const later = (await renderPdf(printedDocument(printableInvoice(10)), { created: new Date('2026-03-05T10:15:01.000Z') })).bytes;
    expect(Buffer.compare(a, later)).not.to.equal(0);
  });

  it('the document information is fixed: title, author, creation date of the version, no time of rendering', async () => {
    const { info } = await readPdf(await render(printableInvoice(1)));
    expect(info).to.include({ Title: 'Faktúra 2026000042', Author: 'Ďatľova účtovná kancelária s.r.o.', Creator: 'sk-einvoicing' });
    expect(info.CreationDate).to.equal("D:20260305101500Z");
    expect(info).not.to.have.property('ModDate');
  });

  it('40 lines take two pages; page 2 repeats the running header and the table heading, and every page is numbered', async () => {
    const { pages } = await readPdf(await render(printableInvoice(40)));
    expect(pages).to.have.length(2);
    for (const [i, page] of pages.entries()) {
      expect(page.text, `page ${i + 1}`).to.include('Faktúra 2026000042');
      expect(page.text).to.include('Názov položky');
      expect(page.text).to.include(`Strana ${i + 1} / 2`);
    }
    // every line once, in order, across the pages; the totals after the last one
    const all = unwrapped(pages.map((p) => p.text).join('\n'));
    expect(all.indexOf('Na úhradu')).to.be.greaterThan(all.lastIndexOf('Ročná účtovná závierka'));
    expect(occurrences(all, 'Školenie: e-fakturácia a Peppol v praxi pre malé a stredné podniky na Slovensku')).to.equal(6);
  });

  it('nothing is drawn outside the page margins, however long the names', async () => {
    const long = printableInvoice(3, {
      buyer: { ...printableInvoice(1).content.buyer, name: `${PANGRAM} ${PANGRAM} ${PANGRAM}` },
      lines: printableInvoice(3).content.lines.map((l) => ({ ...l, item_name: `${l.item_name} ${PANGRAM}`, quantity: '999999999.5', unit_price: '999999.99' })),
    });
    const { pages } = await readPdf(await render(long));
    for (const page of pages) {
      for (const item of page.items.filter((i) => i.str.trim() !== '')) {
        expect(item.x, item.str).to.be.at.least(41.9);
        expect(item.x + item.width, item.str).to.be.at.most(page.width - 41.9);
        expect(item.y, item.str).to.be.within(0, page.height);
      }
    }
  });

  it('an endless item name is cut to fit a page; an endless note flows onto further pages, each with its header', async () => {
    const huge = printableInvoice(2, { note: `${PANGRAM} `.repeat(150) });
    huge.content.lines[0]!.item_name = `${PANGRAM} `.repeat(200);
    const { pages } = await readPdf(await render(huge));
    expect(pages.length).to.be.greaterThan(2);
    expect(unwrapped(pages.map((p) => p.text).join('\n'))).to.include('…');
    for (const page of pages) expect(page.text).to.include('Faktúra 2026000042');
  });

  it('a credit note shows Dobropis, the credited invoice, its date and the reason', async () => {
    const { pages } = await readPdf(await render(printableCreditNote()));
    const text = unwrapped(pages[0]!.text);
    for (const part of ['Dobropis č. DOB-2026-7', 'Dobropis k faktúre', 'Opravovaná faktúra č. 2026000042', 'Zo dňa 05.03.2026', 'Dôvod Oprava ceny', 'Suma dobropisu']) {
      expect(text).to.include(part);
    }
    expect(text).to.match(/Korekcia zaokrúhlenia ZZZ \(23\s%\)/);
  });

  it('labels both parties\' IČO, DIČ and IČ DPH, the IBAN, variable symbol and the three dates', async () => {
    const text = unwrapped((await readPdf(await render(printableInvoice(1)))).pages[0]!.text);
    for (const part of ['IČO 35757442', 'DIČ 2020273893', 'IČ DPH SK2020273893', 'IČO 12345679', 'DIČ 2020000004', 'IČ DPH SK2020000004',
      'IBAN SK31 1200 0000 1987 4263 7541', 'Variabilný symbol 2026000042', 'Dátum vystavenia 05.03.2026', 'Dátum dodania 02.03.2026', 'Dátum splatnosti 19.03.2026']) {
      expect(text).to.include(part);
    }
  });

  it('renders in worker threads the very bytes the calling thread renders', async () => {
    const pool = createPdfRenderer({ workers: 1 });
    try {
      const document = printedDocument(printableInvoice(12));
      const [inWorker, inThread] = await Promise.all([pool.render(document, { created }), renderPdf(document, { created })]);
      expect(Buffer.compare(inWorker.bytes, inThread.bytes)).to.equal(0);
      expect(inWorker.missingGlyphs).to.deep.equal(inThread.missingGlyphs);
    } finally {
      await pool.close();
    }
  });

  describe('cache', () => {
    const pdf = (n: number) => Promise.resolve({ bytes: Buffer.alloc(n), missingGlyphs: [] });

    it('renders a version once, however many ask at the same time', async () => {
      const cache = new PdfCache();
      let renders = 0;
      const once = () => {
        renders++;
        return pdf(10);
      };
      await Promise.all([cache.get('i@1', once), cache.get('i@1', once), cache.get('i@1', once)]);
      await cache.get('i@1', once);
      expect(renders).to.equal(1);
      await cache.get('i@2', once);
      expect(renders).to.equal(2);
    });

    it('keeps at most its bytes, dropping the least recently used first', async () => {
      const cache = new PdfCache(25);
      await cache.get('a@1', () => pdf(10));
      await cache.get('b@1', () => pdf(10));
      await cache.get('a@1', () => pdf(10)); // a is used again: b is now the oldest
      await cache.get('c@1', () => pdf(10));
      expect(cache.size).to.deep.equal({ entries: 2, bytes: 20 });
      let rendered = false;
      await cache.get('a@1', () => ((rendered = true), pdf(10)));
      expect(rendered).to.equal(false);
      await cache.get('b@1', () => ((rendered = true), pdf(10)));
      expect(rendered).to.equal(true);
    });

    it('keeps no failed render', async () => {
      const cache = new PdfCache();
      await cache.get('x@1', () => Promise.reject(new Error('boom'))).catch(() => undefined);
      expect((await cache.get('x@1', () => pdf(3))).bytes).to.have.length(3);
    });
  });
});
