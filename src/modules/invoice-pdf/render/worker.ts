// Piscina worker: renders one printed document to PDF bytes, off the service's event loop. The
// fonts are parsed on this thread's first document and kept for the next ones.
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { PrintedDocument } from '../../../../commands/exports/printed-document.ts';
import { pdfFonts } from './fonts.ts';
import { renderPdf } from './layout.ts';

export type PdfTask = { kind: 'warm' } | { kind: 'render'; document: PrintedDocument; created: string };
export interface PdfTaskResult {
  bytes: Uint8Array;
  missingGlyphs: number[];
}

export default async function handle(task: PdfTask): Promise<PdfTaskResult | null> {
  if (task.kind === 'warm') {
    pdfFonts();
    return null;
  }
  const { bytes, missingGlyphs } = await renderPdf(task.document, { created: new Date(task.created) });
  // a copy of its own: the Buffer's memory may be a larger slab Node will not transfer
  // (DataCloneError); copying a PDF's few KB costs far less than the render
  const result: PdfTaskResult = { bytes: new Uint8Array(bytes), missingGlyphs };
  // the copy handed over, not cloned again, to the main thread
  return move({ [transferableSymbol]: [result.bytes.buffer], [valueSymbol]: result }) as unknown as PdfTaskResult;
}
