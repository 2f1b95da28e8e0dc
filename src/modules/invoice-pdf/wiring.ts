import type { Lookups } from '../invoices/index.ts';
import type { Core } from '../../platform/core.ts';
import { invoicePdfRoutes } from './routes.ts';
import { PdfCache } from './render/cache.ts';
import { createPdfRenderer, type PdfRenderer, type PdfRendererOptions } from './render/index.ts';
import type { Module } from '../module.ts';

interface InvoicePdfModuleDeps extends Pick<Core, 'store' | 'readModels'> {
  lookups: Lookups;
  /** the renderer's threads (default: min(2, CPUs), started with the first PDF asked for) */
  renderer?: PdfRendererOptions;
  /** bytes of rendered PDFs kept by id and version (default 32 MB) */
  cacheBytes?: number;
}

/** A renderer whose worker threads start with the first document, so a service nobody asks for a PDF runs none. */
function lazyRenderer(options: PdfRendererOptions | undefined): PdfRenderer {
  let renderer: PdfRenderer | undefined;
  return {
    render: (document, renderOptions) => (renderer ??= createPdfRenderer(options)).render(document, renderOptions),
    close: async () => renderer?.close(),
  };
}

/** PDFs of invoices, proformas, credit notes and inbound copies, rendered off the event loop and cached by version. */
export function invoicePdfModule(deps: InvoicePdfModuleDeps): Module {
  const pdf = lazyRenderer(deps.renderer);
  return {
    routes: invoicePdfRoutes({ ...deps, pdf, pdfCache: new PdfCache(deps.cacheBytes) }),
    projectors: [],
    reactors: [],
    // not a loop: stopping it ends the renderer's threads with the service
    workers: [{ start: () => undefined, stop: () => pdf.close() }],
  };
}
