import { ClusterCutter, PARAGRAPH_BREAK, type Cluster } from './clusters.ts';
import type { FontStyle, PdfFace, PdfFonts } from './fonts.ts';
import { visualRuns } from './runs.ts';

/**
 * Text as pdfkit cannot set it by itself: in several fonts at once (the fallback order of
 * fonts.ts) and in both directions. clusters.ts decides each character's font, level and where a
 * line may break; runs.ts puts a line's runs in visual order; this measures, wraps and draws, each
 * run with pdfkit in its font, all on the text font's baseline. The PDF so holds visual order, as
 * readers expect: they extract the logical text.
 *
 * Sizes are in points; widths are measured with the very layout pdfkit draws with.
 */
type Doc = PDFKit.PDFDocument;

/** One line as set: its clusters in logical order, trailing spaces left off. */
export interface Line {
  clusters: readonly Cluster[];
}

/**
 * Advance widths at size 1 by font and text, shared by every document of the thread (a width
 * depends on nothing else); emptied when it grows past its bound, as arbitrary text could grow it.
 */
const widths = new Map<string, number>();
const MAX_WIDTHS = 50_000;

const PARAGRAPH_BREAKS = new RegExp(PARAGRAPH_BREAK.source, 'g');

function advance(face: PdfFace, text: string, whole: boolean): number {
  const key = `${face.name}\u0000${whole ? 1 : 0}\u0000${text}`;
  let width = widths.get(key);
  if (width === undefined) {
    const font = face.font();
    width = font.layout(text, whole ? [] : undefined).advanceWidth / font.unitsPerEm;
    if (widths.size >= MAX_WIDTHS) widths.clear();
    widths.set(key, width);
  }
  return width;
}

/** The width of a run at size 1 as pdfkit lays it out: whole, or split after each space or tab and each part alone. */
function runWidth(face: PdfFace, text: string, whole: boolean): number {
  if (whole) return advance(face, text, true);
  let width = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === ' ' || text[i] === '\t') {
      width += advance(face, text.slice(start, i + 1), false);
      start = i + 1;
    }
  }
  return start < text.length ? width + advance(face, text.slice(start), false) : width;
}

const trimEnd = (clusters: readonly Cluster[]): readonly Cluster[] => {
  let end = clusters.length;
  while (end > 0 && clusters[end - 1]!.space) end--;
  return end === clusters.length ? clusters : clusters.slice(0, end);
};

/** The paragraph cut where a line may break: each piece a word with the spaces after it. */
function pieces(clusters: readonly Cluster[]): Cluster[][] {
  const out: Cluster[][] = [];
  for (const c of clusters) {
    if (c.breakBefore || out.length === 0) out.push([c]);
    else out.at(-1)!.push(c);
  }
  return out;
}

/** Sets text for one PDF document: the fonts it draws with are registered with pdfkit as it first needs them. */
export class Typesetter {
  /** every code point drawn as U+FFFD (or left off a letter) so far */
  readonly missing = new Set<number>();
  private readonly registered = new Set<string>();
  private readonly cutters: Record<FontStyle, ClusterCutter>;
  private readonly paragraphs = new Map<string, Cluster[][]>();
  private readonly wrapped = new Map<string, Line[]>();
  private readonly singles = new Map<string, { line: Line; width: number }>();

  constructor(
    private readonly doc: Doc,
    private readonly fonts: PdfFonts,
  ) {
    this.cutters = { regular: new ClusterCutter(fonts.regular), bold: new ClusterCutter(fonts.bold) };
    this.register(fonts.regular[0]!);
    this.register(fonts.bold[0]!);
  }

  /** Height of one line at `size` (the text font's, its gap included, as pdfkit spaces wrapped lines). */
  lineHeight(style: FontStyle, size: number): number {
    const font = this.fonts[style][0]!.font();
    return ((font.ascent + font.lineGap - font.descent) / font.unitsPerEm) * size;
  }

  /** `text` as one line (its line breaks read as spaces) and its width at size 1. */
  singleLine(text: string, style: FontStyle): { line: Line; width: number } {
    const key = `${style}\u0000${text}`;
    let single = this.singles.get(key);
    if (!single) {
      const line = { clusters: trimEnd(this.cut(text.replace(PARAGRAPH_BREAKS, ' '), style)[0] ?? []) };
      single = { line, width: this.lineWidth(line, style) };
      this.singles.set(key, single);
    }
    return single;
  }

  /** Width of `text` set on one line at `size`. */
  width(text: string, style: FontStyle, size: number): number {
    return this.singleLine(text, style).width * size;
  }

  /** Width of `line` at size 1. */
  lineWidth(line: Line, style: FontStyle): number {
    const faces = this.fonts[style];
    return visualRuns(line.clusters).reduce((sum, run) => sum + runWidth(faces[run.face]!, run.text, run.whole), 0);
  }

  /** `text` broken into lines no wider than `width` at `size`; each line break in the text starts a line. */
  wrap(text: string, style: FontStyle, size: number, width: number): Line[] {
    if (text === '') return [];
    const key = `${style}\u0000${width / size}\u0000${text}`;
    let lines = this.wrapped.get(key);
    if (!lines) {
      lines = this.cut(text, style).flatMap((p) => this.wrapParagraph(p, style, width / size));
      this.wrapped.set(key, lines);
    }
    return lines;
  }

  /** Draws `line` with its top at y, from x; the text font of `style` is set again afterwards. */
  draw(line: Line, style: FontStyle, size: number, x: number, y: number): void {
    const faces = this.fonts[style];
    const primary = faces[0]!.font();
    const baseline = y + (primary.ascent / primary.unitsPerEm) * size;
    for (const c of line.clusters) for (const cp of c.missing) this.missing.add(cp);
    let at = x;
    for (const run of visualRuns(line.clusters)) {
      const face = faces[run.face]!;
      this.register(face);
      // features given: pdfkit lays the run out whole (right to left) instead of word by word
      this.doc.font(face.name).fontSize(size).text(run.text, at, baseline, { lineBreak: false, baseline: 'alphabetic', ...(run.whole ? { features: [] } : {}) });
      at += runWidth(face, run.text, run.whole) * size;
    }
    this.doc.font(faces[0]!.name).fontSize(size);
  }

  private register(face: PdfFace): void {
    if (this.registered.has(face.name)) return;
    // pdfkit takes a parsed fontkit font as well as bytes (its typings list only bytes)
    this.doc.registerFont(face.name, face.font() as unknown as Buffer);
    this.registered.add(face.name);
  }

  private cut(text: string, style: FontStyle): Cluster[][] {
    const key = `${style}\u0000${text}`;
    let cut = this.paragraphs.get(key);
    if (!cut) {
      cut = text.split(PARAGRAPH_BREAK).map((p) => this.cutters[style].paragraph(p));
      this.paragraphs.set(key, cut);
    }
    return cut;
  }

  /** Greedy: as many pieces on a line as fit; a piece wider than a line by itself is cut where it reaches the edge. */
  private wrapParagraph(clusters: readonly Cluster[], style: FontStyle, maxWidth: number): Line[] {
    const fits = (width: number) => width <= maxWidth + 1e-9;
    const measure = (cs: readonly Cluster[]) => this.lineWidth({ clusters: cs }, style);
    const lines: Line[] = [];
    let line: Cluster[] = [];
    let lineWidth = 0;
    for (const piece of pieces(clusters)) {
      const inked = measure(trimEnd(piece));
      if (line.length > 0 && !fits(lineWidth + inked)) {
        lines.push({ clusters: trimEnd(line) });
        line = [];
        lineWidth = 0;
      }
      if (line.length === 0 && !fits(inked)) {
        for (const c of piece) {
          const w = measure([c]);
          if (line.length > 0 && !c.space && !fits(lineWidth + w)) {
            lines.push({ clusters: line });
            line = [];
            lineWidth = 0;
          }
          line.push(c);
          lineWidth += w;
        }
        continue;
      }
      line.push(...piece);
      lineWidth += measure(piece);
    }
    lines.push({ clusters: trimEnd(line) });
    return lines;
  }
}
