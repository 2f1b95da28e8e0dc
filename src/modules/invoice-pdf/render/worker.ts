// Piscina worker: renders one printed document to PDF bytes, off the service's event loop. The
// fonts are parsed on this thread's first document and kept for the next ones.
import { move } from 'piscina';
import type { PrintedDocument } from '../../../../commands/exports/printed-document.ts';
import { pdfFonts } from './fonts.ts';
import { renderPdf } from './layout.ts';

export type PdfTask = { kind: 'warm' } | { kind: 'render'; document: PrintedDocument; created: string };

export default async function handle(task: PdfTask): Promise<Uint8Array | null> {
  if (task.kind === 'warm') {
    pdfFonts();
    return null;
  }
  const bytes = await renderPdf(task.document, { created: new Date(task.created) });
  // handed over, not copied, to the main thread
  return move(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as Uint8Array;
}
