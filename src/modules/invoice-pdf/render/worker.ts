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
  // only a buffer of its own can be moved: a pooled one (Buffer.allocUnsafe's slab, shared with
  // other small buffers and not transferable) is copied first
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const result: PdfTaskResult = { bytes: own ? new Uint8Array(bytes.buffer, 0, bytes.byteLength) : Uint8Array.from(bytes), missingGlyphs };
  // the bytes handed over, not copied, to the main thread
  return move({ [transferableSymbol]: [result.bytes.buffer], [valueSymbol]: result }) as unknown as PdfTaskResult;
}
