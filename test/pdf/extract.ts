// What a reader of a PDF gets out of it, with pdfjs-dist (Mozilla's PDF.js): each page's text as
// its lines, where each piece of text sits, and each font with whether its file is embedded.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';

export interface PdfPage {
  width: number;
  height: number;
  /** the text items in content order */
  items: { str: string; x: number; y: number; width: number }[];
  /** the page's text with each line ended by a newline, as a reader copies it */
  text: string;
}

export interface ReadPdf {
  pages: PdfPage[];
  fonts: { name: string; embedded: boolean }[];
  info: Record<string, unknown>;
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const doc = await getDocument({ data: new Uint8Array(bytes), disableFontFace: true, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  const pages: PdfPage[] = [];
  const fonts = new Map<string, boolean>();
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const [, , width, height] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const items = content.items.filter((i): i is TextItem => 'str' in i);
    await page.getOperatorList(); // loads the page's fonts into commonObjs
    for (const loaded of Object.keys(content.styles)) {
      const font = page.commonObjs.get(loaded) as { name: string; missingFile: boolean };
      fonts.set(font.name, !font.missingFile);
    }
    pages.push({
      width, height,
      items: items.map((i) => ({ str: i.str, x: i.transform[4] as number, y: i.transform[5] as number, width: i.width })),
      text: items.map((i) => i.str + (i.hasEOL ? '\n' : '')).join(''),
    });
  }
  const { info } = await doc.getMetadata();
  await doc.destroy();
  return { pages, fonts: [...fonts].map(([name, embedded]) => ({ name, embedded })), info: info as Record<string, unknown> };
}

/** A page's text with the line breaks of wrapped text read as the spaces they stand for. */
export const unwrapped = (text: string) => text.replace(/[ \t]*\n[ \t]*/g, ' ').replace(/ {2,}/g, ' ');
