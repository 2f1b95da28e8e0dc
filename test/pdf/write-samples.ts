// `npx tsx test/pdf/write-samples.ts DIR`: the sample PDFs (a 1-line and a 40-line invoice, a credit
// note) into DIR, and each page as PNG beside them when pdftoppm (poppler-utils) is installed, to
// look at as a buyer would. docs/sample-invoice.pdf and docs/sample-invoice.png are the 40-line ones.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { printedDocument } from '../../commands/exports/printed-document.ts';
import { renderPdf } from '../../src/modules/invoice-pdf/render/layout.ts';
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
    console.log('pdftoppm not found (apt-get install poppler-utils): PDFs only');
  }
  console.log(file);
}
