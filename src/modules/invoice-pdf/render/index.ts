/**
 * PDF rendering off the event loop: a small pool of worker threads (piscina) each holding the
 * parsed fonts, so a 200-line invoice never stalls other requests.
 *
 * ```ts
 * const renderer = createPdfRenderer({ workers: 2 });
 * const { bytes, missingGlyphs } = await renderer.render(printedDocument(invoice), { created });
 * await renderer.close();
 * ```
 * `workers: 0` renders in the calling thread (benchmarks comparing the two, one-shot tools).
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import type { PrintedDocument } from '../../../../commands/exports/printed-document.ts';
import { renderPdf, type RenderedPdf, type RenderOptions } from './layout.ts';
import type { PdfTask, PdfTaskResult } from './worker.ts';

export type { RenderedPdf, RenderOptions } from './layout.ts';

export interface PdfRenderer {
  render(document: PrintedDocument, options: RenderOptions): Promise<RenderedPdf>;
  close(): Promise<void>;
}

export interface PdfRendererOptions {
  /** worker threads; default min(2, CPUs); 0 renders in the calling thread */
  workers?: number;
  /** a document taking longer is abandoned (its worker replaced) and the render rejects; default 30 s */
  timeoutMs?: number;
}

export function createPdfRenderer(options: PdfRendererOptions = {}): PdfRenderer {
  const workers = options.workers ?? Math.min(2, os.availableParallelism());
  if (workers === 0) return { render: renderPdf, close: async () => {} };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pool = new Piscina<PdfTask, PdfTaskResult | null>({
    // compiled (dist/, `npm start`): the worker is plain JavaScript; from source (tsx), a JS entry registers tsx in the thread first
    filename: new URL(import.meta.url.endsWith('.ts') ? './worker-entry.mjs' : './worker.js', import.meta.url).href,
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  // each thread parses the fonts before its first document
  for (let i = 0; i < workers; i++) void pool.run({ kind: 'warm' }).catch(() => undefined);
  let closed = false;
  return {
    async render(document, { created }) {
      if (closed) throw new Error('the PDF renderer is closed');
      const result = await pool.run({ kind: 'render', document, created: created.toISOString() }, { signal: AbortSignal.timeout(timeoutMs) });
      if (!result) throw new Error('the PDF worker answered nothing');
      const { bytes, missingGlyphs } = result;
      return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), missingGlyphs };
    },
    async close() {
      closed = true;
      await pool.destroy();
    },
  };
}
