import PDFDocument from 'pdfkit';
import { formatAmount, formatDate, formatIban, type PrintedDocument, type PrintedField, type PrintedLine, type PrintedParty } from '../../../../commands/exports/printed-document.ts';
import { drawQr, paymentCodeDrawing, QR_SIZE } from './payment-code.ts';
import { pdfFonts, type FontStyle } from './fonts.ts';
import { graphemeEnds } from './clusters.ts';
import { Typesetter } from './text.ts';

/**
 * Lays out a printed document (commands/exports/printed-document.ts decides every word) on A4 with
 * pdfkit, every piece of text set by the Typesetter (text.ts: Noto Sans and its fallback fonts,
 * both directions): a running header on every page, the title block, both parties, payment and
 * dates, a credit note's reference, the lines (their heading repeated on every page the table
 * continues on), the VAT breakdown beside the totals, the amount to pay, the PAY by square code
 * (payment-code.ts), the note, and "Strana x / y".
 *
 * Deterministic: the same document and `created` give the same bytes (the creation date is the
 * document information's only time, and the file ID is derived from the information).
 */
export interface RenderOptions {
  /** the document information's CreationDate: the time of the invoice version printed */
  created: Date;
}

type Doc = PDFKit.PDFDocument;

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = { top: 64, bottom: 48, left: 42, right: 42 };
const WIDTH = A4.width - MARGIN.left - MARGIN.right;
const INK = '#1a1a1a';
const MUTED = '#5c5c5c';
const RULE = '#c8c8c8';
const SHADE = '#eef1f4';
const ACCENT = '#1f4e79';
/** the longest note printed; an inbound document's note may be of any size */
const MAX_NOTE_CHARS = 10_000;

interface Column {
  key: keyof PrintedLine;
  width: number;
  align: 'left' | 'right';
  /** wraps (the item name); the others shrink to fit their width */
  wraps?: boolean;
}

const LINE_COLUMNS: Column[] = [
  { key: 'number', width: 20, align: 'right' },
  { key: 'name', width: 0, align: 'left', wraps: true }, // the rest of the width
  { key: 'quantity', width: 42, align: 'right' },
  { key: 'unit', width: 30, align: 'left' },
  { key: 'unit_price', width: 54, align: 'right' },
  { key: 'discount', width: 42, align: 'right' },
  { key: 'vat_rate', width: 36, align: 'right' },
  { key: 'net', width: 58, align: 'right' },
  { key: 'gross', width: 58, align: 'right' },
];
/** the item name keeps at least this much when figures need more room */
const MIN_NAME_WIDTH = 120;

const CELL_PAD = 2.5;
const TABLE_SIZE = 8;
const BODY_SIZE = 9;

/** A pdfkit document with the few drawing moves this layout makes, tracking font state so a page break can restore it. */
class Pen {
  private fontName: FontStyle = 'regular';
  private size = BODY_SIZE;
  private color = INK;

  constructor(
    readonly doc: Doc,
    private readonly type: Typesetter,
  ) {}

  use(font: FontStyle, size: number, color = INK): this {
    this.fontName = font;
    this.size = size;
    this.color = color;
    this.doc.font(font).fontSize(size).fillColor(color);
    return this;
  }

  /** Draws as `draw` likes, then puts font, colour and position back as they were. */
  aside(draw: () => void): void {
    const { fontName, size, color } = this;
    const { x, y } = this.doc;
    draw();
    this.use(fontName, size, color);
    this.doc.x = x;
    this.doc.y = y;
  }

  width(text: string): number {
    return this.type.width(text, this.fontName, this.size);
  }

  height(text: string, width: number): number {
    return this.type.wrap(text, this.fontName, this.size, width).length * this.type.lineHeight(this.fontName, this.size);
  }

  /**
   * One line at (x, y), never wrapping: the font shrinks until it fits `width`, down to 5 pt; what
   * still does not fit (an amount near the bounds) overflows on the side away from its alignment.
   */
  line(text: string, x: number, y: number, width: number, align: 'left' | 'right' | 'center' = 'left'): void {
    const { line, width: unit } = this.type.singleLine(text, this.fontName);
    let fitted = this.size;
    while (fitted > 5 && unit * fitted > width) fitted -= 0.5;
    const w = unit * fitted;
    const at = align === 'left' ? x : align === 'right' ? x + width - w : x + (width - w) / 2;
    this.type.draw(line, this.fontName, fitted, at, y);
    this.doc.fontSize(this.size);
  }

  /** Wrapped text in a box of `width`; returns its height. */
  block(text: string, x: number, y: number, width: number, align: 'left' | 'right' = 'left'): number {
    const lineHeight = this.type.lineHeight(this.fontName, this.size);
    const lines = this.type.wrap(text, this.fontName, this.size, width);
    lines.forEach((line, i) => {
      const at = align === 'left' ? x : x + width - this.type.lineWidth(line, this.fontName) * this.size;
      this.type.draw(line, this.fontName, this.size, at, y + i * lineHeight);
    });
    return lines.length * lineHeight;
  }

  /** Wrapped text from y down, going on at the top of a new page whenever a line would cross the bottom margin. */
  flow(text: string, x: number, y: number, width: number): void {
    const lineHeight = this.type.lineHeight(this.fontName, this.size);
    let at = y;
    for (const line of this.type.wrap(text, this.fontName, this.size, width)) {
      if (at + lineHeight > bottom()) {
        // the new page's running header is drawn aside: font and colour stay
        this.doc.addPage();
        at = MARGIN.top;
      }
      this.type.draw(line, this.fontName, this.size, x, at);
      at += lineHeight;
    }
  }

  /** `text` cut with an ellipsis until it fits `width` on one line. */
  ellipsis(text: string, width: number): string {
    return this.width(text) <= width ? text : cut(text, (shorter) => this.width(shorter) <= width);
  }

  /** `text` cut with an ellipsis until its wrapped height fits `maxHeight`. */
  clamp(text: string, width: number, maxHeight: number): string {
    return this.height(text, width) <= maxHeight ? text : cut(text, (shorter) => this.height(shorter, width) <= maxHeight);
  }

  rule(x1: number, x2: number, y: number, color = RULE, width = 0.5): void {
    this.doc.save().moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor(color).stroke().restore();
  }

  fill(x: number, y: number, w: number, h: number, color: string): void {
    this.doc.save().rect(x, y, w, h).fillColor(color).fill().restore();
    this.doc.fillColor(this.color);
  }
}

const bottom = () => A4.height - MARGIN.bottom;

/** The longest start of `text` (whole characters, never half of one) that `fits` followed by an ellipsis, with it. */
function cut(text: string, fits: (shorter: string) => boolean): string {
  const ends = [0, ...graphemeEnds(text)];
  let low = 0;
  let high = ends.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(`${text.slice(0, ends[mid])}…`)) low = mid;
    else high = mid - 1;
  }
  return `${text.slice(0, ends[low])}…`;
}

function runningHeader(pen: Pen, p: PrintedDocument): void {
  pen.aside(() => {
    const y = 30;
    const right = `${p.title} ${p.number}`;
    pen.use('bold', 8.5, ACCENT);
    const rightWidth = Math.min(pen.width(right) + 2, WIDTH / 2);
    pen.line(right, MARGIN.left + WIDTH - rightWidth, y, rightWidth, 'right');
    pen.use('regular', 8.5, MUTED);
    pen.line(pen.ellipsis(p.supplier.name, WIDTH - rightWidth - 12), MARGIN.left, y, WIDTH - rightWidth - 12);
    pen.rule(MARGIN.left, MARGIN.left + WIDTH, 46, ACCENT, 0.8);
  });
}

function pageNumbers(pen: Pen, p: PrintedDocument): void {
  const { start, count } = pen.doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    pen.doc.switchToPage(i);
    // text below the bottom margin would start a new page: lift the margin while writing there
    const margins = pen.doc.page.margins;
    const saved = margins.bottom;
    margins.bottom = 0;
    const y = A4.height - 32;
    pen.rule(MARGIN.left, MARGIN.left + WIDTH, y - 6);
    pen.use('regular', 7.5, MUTED);
    pen.line(`${p.title} ${p.number}`, MARGIN.left, y, WIDTH / 2);
    pen.line(`Strana ${i - start + 1} / ${count}`, MARGIN.left + WIDTH / 2, y, WIDTH / 2, 'right');
    margins.bottom = saved;
  }
}

/** Starts a new page when `height` does not fit below `y`; returns where to go on. */
function room(pen: Pen, y: number, height: number): number {
  if (y + height <= bottom()) return y;
  pen.doc.addPage();
  return MARGIN.top;
}

function titleBlock(pen: Pen, p: PrintedDocument, y: number): number {
  pen.use('bold', 18, INK);
  const title = `${p.title} č. ${p.number}`;
  const stampWidth = p.stamp ? 110 : 0;
  const titleHeight = pen.block(title, MARGIN.left, y, WIDTH - stampWidth - 8);
  if (p.stamp) {
    pen.use('bold', 12, '#b00020');
    pen.doc.save().roundedRect(MARGIN.left + WIDTH - stampWidth, y + 2, stampWidth, 22, 3).lineWidth(1.2).strokeColor('#b00020').stroke().restore();
    pen.line(p.stamp, MARGIN.left + WIDTH - stampWidth, y + 7, stampWidth, 'center');
  }
  let next = y + Math.max(titleHeight, 26);
  if (p.subtitle) {
    pen.use('regular', 9, MUTED);
    next += pen.block(p.subtitle, MARGIN.left, next, WIDTH) + 2;
  }
  return next + 8;
}

function fieldsHeight(pen: Pen, fields: PrintedField[], labelWidth: number, width: number): number {
  pen.use('regular', BODY_SIZE);
  return fields.reduce((h, f) => h + Math.max(pen.height(f.value, width - labelWidth), 11) + 1, 0);
}

function drawFields(pen: Pen, fields: PrintedField[], x: number, y: number, labelWidth: number, width: number): number {
  let at = y;
  for (const f of fields) {
    pen.use('regular', BODY_SIZE, MUTED);
    pen.line(f.label, x, at, labelWidth - 4);
    pen.use('regular', BODY_SIZE, INK);
    at += Math.max(pen.block(f.value, x + labelWidth, at, width - labelWidth), 11) + 1;
  }
  return at - y;
}

function partyBox(pen: Pen, party: PrintedParty, x: number, y: number, width: number, draw: boolean): number {
  const inner = width - 16;
  let at = y + 8;
  pen.use('bold', 7.5, ACCENT);
  if (draw) pen.line(party.heading.toUpperCase(), x + 8, at, inner);
  at += 12;
  pen.use('bold', 10.5, INK);
  const name = pen.clamp(party.name, inner, 80);
  if (draw) pen.block(name, x + 8, at, inner);
  at += pen.height(name, inner) + 3;
  pen.use('regular', BODY_SIZE, INK);
  for (const line of party.address) {
    const text = pen.clamp(line, inner, 36);
    if (draw) pen.block(text, x + 8, at, inner);
    at += pen.height(text, inner);
  }
  at += 4;
  if (draw) drawFields(pen, party.identifiers, x + 8, at, 48, inner);
  at += fieldsHeight(pen, party.identifiers, 48, inner);
  if (party.notes.length > 0) {
    at += 3;
    pen.use('regular', 7.5, MUTED);
    for (const line of party.notes) {
      const text = pen.clamp(line, inner, 40);
      if (draw) pen.block(text, x + 8, at, inner);
      at += pen.height(text, inner) + 1;
    }
  }
  return at + 6 - y;
}

function parties(pen: Pen, p: PrintedDocument, y: number): number {
  const gap = 14;
  const w = (WIDTH - gap) / 2;
  const h = Math.max(partyBox(pen, p.supplier, MARGIN.left, y, w, false), partyBox(pen, p.buyer, MARGIN.left + w + gap, y, w, false));
  const at = room(pen, y, h);
  pen.fill(MARGIN.left, at, w, h, SHADE);
  pen.doc.save().rect(MARGIN.left + w + gap, at, w, h).lineWidth(0.8).strokeColor(RULE).stroke().restore();
  partyBox(pen, p.supplier, MARGIN.left, at, w, true);
  partyBox(pen, p.buyer, MARGIN.left + w + gap, at, w, true);
  return at + h + 12;
}

function paymentAndDates(pen: Pen, p: PrintedDocument, y: number): number {
  const gap = 14;
  const w = (WIDTH - gap) / 2;
  const h = Math.max(fieldsHeight(pen, p.payment, 100, w), fieldsHeight(pen, p.dates, 100, w));
  const at = room(pen, y, h);
  drawFields(pen, p.payment, MARGIN.left, at, 100, w);
  drawFields(pen, p.dates, MARGIN.left + w + gap, at, 100, w);
  return at + h + 10;
}

function creditReference(pen: Pen, p: PrintedDocument, y: number): number {
  if (!p.credit) return y;
  const inner = WIDTH - 16;
  const h = 8 + 13 + fieldsHeight(pen, p.credit.fields, 120, inner) + 6;
  const at = room(pen, y, h);
  pen.fill(MARGIN.left, at, 3, h, ACCENT);
  pen.fill(MARGIN.left + 3, at, WIDTH - 3, h, SHADE);
  pen.use('bold', BODY_SIZE, ACCENT);
  pen.line(p.credit.heading, MARGIN.left + 10, at + 8, inner);
  drawFields(pen, p.credit.fields, MARGIN.left + 10, at + 21, 120, inner);
  return at + h + 10;
}

/**
 * The line table's columns for this document: each figure column as wide as its widest value
 * needs (at least its default), the item name taking the rest but never less than
 * MIN_NAME_WIDTH; figures that still do not fit shrink (Pen.line).
 */
function lineColumns(pen: Pen, p: PrintedDocument): Column[] {
  const columns = LINE_COLUMNS.map((c) => ({ ...c }));
  for (const c of columns.filter((column) => !column.wraps)) {
    pen.use('bold', TABLE_SIZE - 0.5);
    let widest = pen.width(p.lineHeadings[c.key]);
    pen.use('regular', TABLE_SIZE);
    for (const line of p.lines) widest = Math.max(widest, pen.width(line[c.key]));
    c.width = Math.max(c.width, Math.ceil(widest + 2 * CELL_PAD + 1));
  }
  const figures = () => columns.reduce((sum, c) => sum + (c.wraps ? 0 : c.width), 0);
  const overrun = figures() - (WIDTH - MIN_NAME_WIDTH);
  if (overrun > 0) {
    // give back what the figures took beyond their defaults, in proportion
    const extras = columns.map((c, i) => (c.wraps ? 0 : c.width - LINE_COLUMNS[i]!.width));
    const extra = extras.reduce((a, b) => a + b, 0);
    columns.forEach((c, i) => (c.width -= extra > 0 ? (extras[i]! / extra) * Math.min(overrun, extra) : 0));
  }
  const name = columns.find((c) => c.wraps)!;
  name.width = WIDTH - figures();
  return columns;
}

function tableHeading(pen: Pen, p: PrintedDocument, columns: Column[], y: number): number {
  const h = 16;
  pen.fill(MARGIN.left, y, WIDTH, h, ACCENT);
  pen.use('bold', TABLE_SIZE - 0.5, '#ffffff');
  let x = MARGIN.left;
  for (const c of columns) {
    pen.line(p.lineHeadings[c.key], x + CELL_PAD, y + 4.5, c.width - 2 * CELL_PAD, c.align);
    x += c.width;
  }
  return y + h;
}

function lineTable(pen: Pen, p: PrintedDocument, y: number): number {
  const columns = lineColumns(pen, p);
  const nameColumn = columns.find((c) => c.wraps)!;
  const nameWidth = nameColumn.width - 2 * CELL_PAD;
  // a row never outgrows a page: an endless name is cut
  const maxRow = bottom() - MARGIN.top - 40;
  let at = tableHeading(pen, p, columns, room(pen, y, 16 + 20));
  p.lines.forEach((line, index) => {
    pen.use('regular', TABLE_SIZE, INK);
    const name = pen.clamp(line.name, nameWidth, maxRow - 2 * CELL_PAD);
    const h = pen.height(name, nameWidth) + 2 * CELL_PAD + 1;
    if (at + h > bottom()) {
      pen.doc.addPage();
      at = tableHeading(pen, p, columns, MARGIN.top);
    }
    if (index % 2 === 1) pen.fill(MARGIN.left, at, WIDTH, h, '#f7f8fa');
    let x = MARGIN.left;
    for (const c of columns) {
      pen.use('regular', TABLE_SIZE, INK);
      if (c.wraps) pen.block(name, x + CELL_PAD, at + CELL_PAD, nameWidth);
      else pen.line(line[c.key], x + CELL_PAD, at + CELL_PAD, c.width - 2 * CELL_PAD, c.align);
      x += c.width;
    }
    at += h;
    pen.rule(MARGIN.left, MARGIN.left + WIDTH, at);
  });
  return at + 12;
}

/** The VAT breakdown (left) beside the totals and the amount to pay (right), kept together on one page. */
function summary(pen: Pen, p: PrintedDocument, y: number): number {
  const gap = 20;
  const rowH = 14;
  // figure columns as wide as their widest value; the table grows (the totals beside it shrink, to 200 pt at least)
  pen.use('regular', TABLE_SIZE);
  const figure = (key: 'base' | 'vat' | 'gross', least: number) =>
    Math.max(least, Math.ceil(Math.max(0, ...p.vat.map((v) => pen.width(v[key]))) + 2 * CELL_PAD + 1));
  const figures = { base: figure('base', 60), vat: figure('vat', 54), gross: figure('gross', 60) };
  const vatWidth = Math.min(WIDTH - gap - 200, Math.max(270, 80 + figures.base + figures.vat + figures.gross));
  const figuresWidth = figures.base + figures.vat + figures.gross;
  if (figuresWidth > vatWidth - 60) {
    // past the cap the figures share what there is (and shrink to fit it)
    const scale = (vatWidth - 60) / figuresWidth;
    figures.base *= scale;
    figures.vat *= scale;
    figures.gross *= scale;
  }
  const rateWidth = vatWidth - figures.base - figures.vat - figures.gross;
  const totalsX = MARGIN.left + vatWidth + gap;
  const totalsWidth = WIDTH - vatWidth - gap;
  const vatCols = [
    { key: 'rate', w: rateWidth, align: 'left' },
    { key: 'base', w: figures.base, align: 'right' },
    { key: 'vat', w: figures.vat, align: 'right' },
    { key: 'gross', w: figures.gross, align: 'right' },
  ] as const;
  const vatRowHeights = p.vat.map((v) => Math.max(rowH, pen.height(v.rate, vatCols[0].w - 2 * CELL_PAD) + 2 * CELL_PAD));
  const vatHeight = 16 + vatRowHeights.reduce((a, b) => a + b, 0);
  const totalsHeight = p.totals.length * rowH + 30;
  const at = room(pen, y, Math.max(vatHeight, totalsHeight));

  pen.fill(MARGIN.left, at, vatWidth, 16, SHADE);
  let x = MARGIN.left;
  for (const c of vatCols) {
    pen.use('bold', TABLE_SIZE - 0.5, INK);
    pen.line(p.vatHeadings[c.key], x + CELL_PAD, at + 4.5, c.w - 2 * CELL_PAD, c.align);
    x += c.w;
  }
  let vy = at + 16;
  p.vat.forEach((row, i) => {
    x = MARGIN.left;
    for (const c of vatCols) {
      pen.use('regular', TABLE_SIZE, INK);
      if (c.key === 'rate') pen.block(row.rate, x + CELL_PAD, vy + CELL_PAD, c.w - 2 * CELL_PAD);
      else pen.line(row[c.key], x + CELL_PAD, vy + CELL_PAD, c.w - 2 * CELL_PAD, c.align);
      x += c.w;
    }
    vy += vatRowHeights[i]!;
    pen.rule(MARGIN.left, MARGIN.left + vatWidth, vy);
  });

  let ty = at;
  for (const t of p.totals) {
    pen.use('regular', BODY_SIZE, INK);
    const valueWidth = Math.min(pen.width(t.value) + 1, totalsWidth * 0.5);
    pen.line(t.value, totalsX + totalsWidth - valueWidth, ty + 2, valueWidth, 'right');
    pen.use('regular', BODY_SIZE, MUTED);
    pen.line(t.label, totalsX, ty + 2, totalsWidth - valueWidth - 8);
    ty += rowH;
  }
  ty += 4;
  pen.fill(totalsX, ty, totalsWidth, 24, ACCENT);
  pen.use('bold', 10.5, '#ffffff');
  pen.line(p.payable.label, totalsX + 6, ty + 6.5, totalsWidth * 0.45);
  pen.line(p.payable.value, totalsX + totalsWidth * 0.45, ty + 6.5, totalsWidth * 0.55 - 6, 'right');
  return Math.max(vy, ty + 24) + 16;
}

/**
 * The PAY by square block: the QR code (vector) beside what it pays (amount, IBAN, variable
 * symbol, due date), kept together on one page; or, for a document without a code, one sentence
 * saying why, never a broken code.
 */
function paymentCodeBlock(pen: Pen, p: PrintedDocument, y: number): number {
  const drawing = paymentCodeDrawing(p.payment_code);
  if ('notice' in drawing) {
    const at = room(pen, y, 16);
    pen.use('regular', BODY_SIZE - 1, MUTED);
    return at + pen.block(drawing.notice, MARGIN.left, at, WIDTH) + 12;
  }
  const at = room(pen, y, QR_SIZE + 8);
  pen.doc.save().rect(MARGIN.left, at, WIDTH, QR_SIZE + 8).lineWidth(0.8).strokeColor(RULE).stroke().restore();
  drawQr(pen.doc, drawing.modules, MARGIN.left + 4, at + 4, QR_SIZE);
  const x = MARGIN.left + QR_SIZE + 18;
  const width = WIDTH - QR_SIZE - 26;
  pen.use('bold', 10.5, ACCENT);
  pen.line('Zaplaťte QR kódom (PAY by square)', x, at + 12, width);
  pen.use('regular', BODY_SIZE - 0.5, MUTED);
  pen.block('Naskenujte kód v aplikácii svojej banky: platba sa vyplní sama.', x, at + 28, width);
  const { payment } = drawing;
  const fields: PrintedField[] = [
    { label: 'Suma', value: `${formatAmount(payment.amount)}\u00a0${payment.currency}` },
    { label: 'IBAN', value: formatIban(payment.iban) },
  ];
  if (payment.variable_symbol) fields.push({ label: 'Variabilný symbol', value: payment.variable_symbol });
  if (payment.due_date) fields.push({ label: 'Splatnosť', value: formatDate(payment.due_date) });
  drawFields(pen, fields, x, at + 46, 100, width);
  return at + QR_SIZE + 8 + 14;
}

function note(pen: Pen, p: PrintedDocument, y: number): void {
  if (!p.note) return;
  // cut between characters, never inside one (a surrogate pair, a letter and its marks)
  const text = p.note.length > MAX_NOTE_CHARS ? `${p.note.slice(0, graphemeEnds(p.note.slice(0, MAX_NOTE_CHARS + 1)).filter((end) => end <= MAX_NOTE_CHARS).at(-1) ?? 0)}…` : p.note;
  const at = room(pen, y, 40);
  pen.use('bold', BODY_SIZE, ACCENT);
  pen.line('Poznámka', MARGIN.left, at, WIDTH);
  pen.use('regular', BODY_SIZE, INK);
  // a long note flows onto further pages; each new page gets its running header
  pen.flow(text, MARGIN.left, at + 13, WIDTH);
}

/** A rendered PDF and the code points it could not draw (each drawn as U+FFFD), ascending. */
export interface RenderedPdf {
  bytes: Buffer;
  missingGlyphs: number[];
}

/** The PDF of a printed document. */
export function renderPdf(p: PrintedDocument, options: RenderOptions): Promise<RenderedPdf> {
  const doc = new PDFDocument({
    size: [A4.width, A4.height],
    margins: MARGIN,
    bufferPages: true,
    autoFirstPage: false,
    // no default font: the standard Helvetica would be a font that is not embedded
    font: null as unknown as string,
    lang: 'sk-SK',
    displayTitle: true,
    info: { Title: p.info.title, Author: p.info.author, Subject: p.info.subject, Creator: 'sk-einvoicing', Producer: 'sk-einvoicing (PDFKit)', CreationDate: options.created },
  });
  const type = new Typesetter(doc, pdfFonts());
  doc.font('regular').fontSize(BODY_SIZE);
  const pen = new Pen(doc, type);
  doc.on('pageAdded', () => runningHeader(pen, p));
  const chunks: Buffer[] = [];
  const done = new Promise<RenderedPdf>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve({ bytes: Buffer.concat(chunks), missingGlyphs: [...type.missing].sort((a, b) => a - b) }));
    doc.on('error', reject);
  });
  doc.addPage();
  let y = titleBlock(pen, p, MARGIN.top);
  y = parties(pen, p, y);
  y = paymentAndDates(pen, p, y);
  y = creditReference(pen, p, y);
  y = lineTable(pen, p, y);
  y = summary(pen, p, y);
  y = paymentCodeBlock(pen, p, y);
  note(pen, p, y);
  pageNumbers(pen, p);
  doc.end();
  return done;
}
