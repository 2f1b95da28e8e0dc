// `npx tsx test/pdf/write-samples.ts DIR`: the sample PDFs (a 1-line and a 40-line invoice, a credit
// note) into DIR, and each page as PNG beside them (pdftoppm from poppler-utils when installed, else
// pdfjs-dist on @napi-rs/canvas: raster.ts), to look at as a buyer would. docs/sample-invoice.pdf is
// the 40-line one, docs/sample-invoice.png its two pages side by side (`invoice-40-lines.png`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
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

// docs/sample-invoice.png: the 40-line invoice's pages side by side, so it shows the parties and the QR code
const pages = await Promise.all([1, 2].map(async (n) => loadImage(readFileSync(path.join(dir, `invoice-40-lines-${n}.png`)))));
const sheet = createCanvas(pages.reduce((w, p) => w + p.width, 0), Math.max(...pages.map((p) => p.height)));
const context = sheet.getContext('2d');
context.fillStyle = '#ffffff';
context.fillRect(0, 0, sheet.width, sheet.height);
pages.reduce((x, page) => (context.drawImage(page, x, 0), x + page.width), 0);
writeFileSync(path.join(dir, 'invoice-40-lines.png'), sheet.toBuffer('image/png'));
console.log(path.join(dir, 'invoice-40-lines.png'));
