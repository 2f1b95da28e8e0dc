// `npx tsx test/pdf/write-samples.ts DIR`: the sample PDFs (a 1-line and a 40-line invoice, a credit
// note) into DIR, and each page as PNG beside them (pdftoppm from poppler-utils when installed, else
// pdfjs-dist on @napi-rs/canvas: raster.ts), to look at as a buyer would. docs/sample-invoice.pdf is
// the 40-line one, docs/sample-invoice.png its first page (`invoice-40-lines-1.png`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { printedDocument } from '../../commands/exports/printed-document.ts';
import { renderPdf } from '../../src/modules/invoice-pdf/render/layout.ts';
import { readPdf } from './extract.ts';
import { renderPage } from './raster.ts';
import { printableCreditNote, printableInvoice } from './samples.ts';

const dir = process.argv[2] ?? 'pdf-samples';
mkdirSync(dir, { recursive: true });
const samples = { 'invoice-1-line': printableInvoice(1), 'invoice-40-lines': printableInvoice(40), 'credit-note': printableCreditNote() };
for (const [name, sample] of Object.entries(samples)) {
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, (await renderPdf(printedDocument(sample), { created: new Date('2026-03-05T10:15:00Z') })).bytes);
  try {
    execFileSync('pdftoppm', ['-r', '100', '-png', file, path.join(dir, name)]);
  } catch {
    // no poppler: PDF.js draws the pages (100 dpi, as pdftoppm -r 100 would)
    const bytes = readFileSync(file);
    const { pages } = await readPdf(bytes);
    for (let n = 1; n <= pages.length; n++) writeFileSync(path.join(dir, `${name}-${n}.png`), (await renderPage(bytes, n, 100 / 72)).png());
  }
  console.log(file);
}
