import type { RenderedPdf } from './layout.ts';

/**
 * Rendered PDFs (with what they could not draw) by invoice id and version, least recently used first out, bounded by bytes. A
 * version of an invoice never changes, so an entry is never stale; concurrent requests for one
 * version share one render.
 */
export class PdfCache {
  private readonly entries = new Map<string, Promise<RenderedPdf>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  static key(invoiceId: string, version: number): string {
    return `${invoiceId}@${version}`;
  }

  /** The cached PDF of `key`, or the one `render` makes (kept when its bytes fit; a failed render is not kept). */
  get(key: string, render: () => Promise<RenderedPdf>): Promise<RenderedPdf> {
    const hit = this.entries.get(key);
    if (hit) {
      // most recently used: to the end of the insertion order
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const rendering = render();
    this.entries.set(key, rendering);
    rendering.then(
      (pdf) => this.admit(key, rendering, pdf.bytes.byteLength),
      () => {
        if (this.entries.get(key) === rendering) this.entries.delete(key);
      },
    );
    return rendering;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.sizes.size, bytes: this.bytes };
  }

  private admit(key: string, entry: Promise<RenderedPdf>, size: number): void {
    if (this.entries.get(key) !== entry) return;
    if (size > this.maxBytes) {
      this.entries.delete(key);
      return;
    }
    this.sizes.set(key, size);
    this.bytes += size;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      const oldSize = this.sizes.get(oldest);
      if (oldSize === undefined) continue; // still rendering
      this.entries.delete(oldest);
      this.sizes.delete(oldest);
      this.bytes -= oldSize;
    }
  }
}
