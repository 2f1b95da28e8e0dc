// A PDF page as pixels, drawn by pdfjs-dist (Mozilla's PDF.js) on @napi-rs/canvas, as a reader's
// screen shows it: what the QR test decodes, and how write-samples.ts makes docs/sample-invoice.png.
import jsQRModule from 'jsqr';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PagePixels {
  width: number;
  height: number;
  /** RGBA, row by row */
  data: Uint8ClampedArray;
  /** the page as a PNG file */
  png(): Buffer;
}

/** Page `pageNumber` (from 1) at `scale` × 72 dpi (2 ≈ 144 dpi). */
export async function renderPage(bytes: Uint8Array, pageNumber = 1, scale = 2): Promise<PagePixels> {
  // pdfjs-dist finds @napi-rs/canvas itself in Node (its NodeCanvasFactory); the fonts are the embedded ones
  const doc = await getDocument({ data: new Uint8Array(bytes), disableFontFace: true, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale });
    const factory = doc.canvasFactory as { create(w: number, h: number): { canvas: CanvasLike; context: unknown } };
    const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as CanvasRenderingContext2D, viewport, background: '#ffffff' }).promise;
    const ctx = context as { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    return { width: canvas.width, height: canvas.height, data, png: () => canvas.toBuffer('image/png') };
  } finally {
    await doc.destroy();
  }
}

interface CanvasLike {
  width: number;
  height: number;
  toBuffer(mime: 'image/png'): Buffer;
}

/** The text of the QR code on the pixels (jsQR), or null when none is found. */
export function readQr(pixels: Pick<PagePixels, 'data' | 'width' | 'height'>): string | null {
  // jsQR is a CommonJS module whose types declare an ES default export: take whichever it gives
  const loaded = jsQRModule as unknown as JsQr | { default: JsQr };
  const jsQR = typeof loaded === 'function' ? loaded : loaded.default;
  // jsQR now and then takes text that happens to look like finder patterns for a code holding
  // nothing: a code without data is no code a bank app could read
  const found = jsQR(pixels.data, pixels.width, pixels.height);
  return found?.data ? found.data : null;
}

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
