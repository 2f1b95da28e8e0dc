import type { PrintedPaymentCode } from '../../../../commands/exports/printed-document.ts';
import { codeOf, qrModules } from '../pay-by-square.ts';

/** The QR's side in points: 38 mm, well above the 2 cm banking apps read comfortably from paper. */
export const QR_SIZE = 108;
/** The quiet zone around the symbol, in modules (ISO/IEC 18004 asks for 4). */
const QUIET = 4;

/** What the PAY by square block draws: a code's modules, or a sentence saying why there is none. */
export type PaymentCodeDrawing = { modules: boolean[][]; payment: Extract<PrintedPaymentCode, { payment: unknown }>['payment'] } | { notice: string };

/** The block's content: the code encoded and made a QR symbol, or the printed document's notice. */
export function paymentCodeDrawing(code: PrintedPaymentCode): PaymentCodeDrawing {
  if ('notice' in code) return code;
  const encoded = codeOf(code.payment);
  return encoded.ok ? { modules: qrModules(encoded.code), payment: code.payment } : { notice: `QR platba (PAY by square): ${encoded.words}` };
}

/**
 * Draws a QR symbol as vector squares (one filled path, no raster image) in a white square of
 * `size` points at (x, y), its quiet zone included: it prints sharp at any resolution.
 */
export function drawQr(doc: PDFKit.PDFDocument, modules: boolean[][], x: number, y: number, size: number): void {
  const count = modules.length + 2 * QUIET;
  const unit = size / count;
  doc.save().rect(x, y, size, size).fillColor('#ffffff').fill();
  // a row's run of dark modules as one rectangle: no seams between neighbours when rasterised
  modules.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      if (!row[c]) continue;
      const start = c;
      while (row[c + 1]) c++;
      doc.rect(x + (start + QUIET) * unit, y + (r + QUIET) * unit, (c - start + 1) * unit, unit);
    }
  });
  doc.fillColor('#000000').fill().restore();
}
