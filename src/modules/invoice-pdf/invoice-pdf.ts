import { documentTitle, printedDocument } from '../../../commands/exports/printed-document.ts';
import type { RequestScope } from '../../../commands/shared/access.ts';
import type { Core } from '../../platform/core.ts';
import { PdfCache } from './render/cache.ts';
import type { PdfRenderer } from './render/index.ts';
import { loadInvoice } from '../invoices/index.ts';

export interface InvoicePdfDeps extends Pick<Core, 'store'> {
  pdf: PdfRenderer;
  pdfCache: PdfCache;
}

type InvoicePdf =
  /** `missingGlyphs`: the code points no embedded font has, each drawn as U+FFFD, ascending */
  | { unchanged: false; bytes: Buffer; missingGlyphs: number[]; version: number; invoiceNumber: string; title: string }
  /** the caller already has this version (`unchangedIf` said so): nothing was rendered */
  | { unchanged: true; version: number };

/**
 * The PDF of a document (invoice, proforma, credit note, inbound copy) as its stream stands now:
 * the same access rule as every read of the stream (another organisation's or company's is 404),
 * then the rendered bytes of that version, from the cache or the renderer's threads. The creation
 * date in the PDF is the time that version was recorded, so a version always gives the same bytes.
 */
export async function invoicePdf(deps: InvoicePdfDeps, scope: RequestScope, invoiceId: string, unchangedIf: (version: number) => boolean = () => false): Promise<InvoicePdf> {
  const { state, events, version } = await loadInvoice(deps, scope, invoiceId);
  if (unchangedIf(version)) return { unchanged: true, version };
  const recorded = events.find((e) => e.revision === version)?.recordedAt ?? new Date(0);
  const { bytes, missingGlyphs } = await deps.pdfCache.get(PdfCache.key(invoiceId, version), () => deps.pdf.render(printedDocument(state), { created: recorded }));
  return { unchanged: false, bytes, missingGlyphs, version, invoiceNumber: state.invoice_number, title: documentTitle(state.content.invoice_type) };
}
