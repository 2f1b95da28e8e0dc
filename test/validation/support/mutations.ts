// A seeded corpus of invoices that differ from valid ones by one edit: delete, duplicate or reorder an
// element; change a code, a date, an identifier, an amount by 0.01, a currency; empty a text; pad or
// re-case a value. The same seed always gives the same documents, so a difference found once can be
// reproduced by its name. Edits work on the text (element spans found by a small scanner), so the
// rest of each document stays byte for byte as it was.
import fs from 'node:fs';
import path from 'node:path';
import { generateInvoice } from './generate-invoice.ts';
import { listXmlFiles } from './unit-tests.ts';
import { seededRandom } from '../../../src/platform/seeded-random.ts';

/** mulberry32 (src/platform/seeded-random.ts) */
export const rng = seededRandom;

export interface CorpusDocument {
  name: string;
  xml: string;
}

interface Span {
  name: string;
  start: number; // '<' of the start tag
  end: number; // just after the end tag (or the empty-element tag)
  /** Text content of a leaf element: [from, to) between the tags; null when it has element children. */
  text: [number, number] | null;
  parent: number; // index of the parent span, -1 for the root
  attrs: { name: string; valueStart: number; valueEnd: number }[];
}

/** Element spans of a well-formed document, in document order. */
export function scanElements(xml: string): Span[] {
  const spans: Span[] = [];
  const stack: number[] = [];
  const childCount: number[] = [];
  let i = 0;
  while ((i = xml.indexOf('<', i)) >= 0) {
    if (xml.startsWith('<!--', i)) {
      i = xml.indexOf('-->', i) + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', i)) {
      i = xml.indexOf(']]>', i) + 3;
      continue;
    }
    if (xml[i + 1] === '?' || xml[i + 1] === '!') {
      i = xml.indexOf('>', i) + 1;
      continue;
    }
    if (xml[i + 1] === '/') {
      const close = xml.indexOf('>', i);
      const k = stack.pop();
      if (k !== undefined) {
        const span = spans[k] as Span;
        span.end = close + 1;
        if ((childCount[k] ?? 0) === 0) span.text = [span.text?.[0] ?? i, i];
        else span.text = null;
      }
      i = close + 1;
      continue;
    }
    // start tag: find its end outside quoted attribute values
    let j = i + 1;
    let quote = '';
    for (; j < xml.length; j++) {
      const c = xml[j];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') break;
    }
    const tag = xml.slice(i, j + 1);
    const name = /^<([^\s/>]+)/.exec(tag)?.[1] ?? '';
    const attrs: Span['attrs'] = [];
    for (const m of tag.matchAll(/\s([^\s=/>]+)\s*=\s*(["'])(.*?)\2/gs)) {
      if ((m[1] ?? '').startsWith('xmlns')) continue;
      const valueStart = i + (m.index ?? 0) + m[0].indexOf(m[2] ?? '"') + 1;
      attrs.push({ name: m[1] ?? '', valueStart, valueEnd: valueStart + (m[3] ?? '').length });
    }
    const parent = stack.length > 0 ? (stack[stack.length - 1] as number) : -1;
    if (parent >= 0) childCount[parent] = (childCount[parent] ?? 0) + 1;
    const selfClosing = tag.endsWith('/>');
    spans.push({ name, start: i, end: j + 1, text: selfClosing ? null : [j + 1, j + 1], parent, attrs });
    childCount.push(0);
    if (!selfClosing) stack.push(spans.length - 1);
    i = j + 1;
  }
  return spans;
}

const escapeText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const CODES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M', 'B', 'VAT', '380', '381', '384', '389', '326', '30', '31', '42', '48', '49', '57', '58', '59', '1', '0', 'C62', 'EA', 'H87', 'XYZ', '95', 'ZZZ', 'vat', ''];
const CURRENCIES = ['EUR', 'USD', 'CZK', 'GBP', 'SEK', 'NOK', 'DKK', 'HUF', 'XXX', 'eur'];
const COUNTRIES = ['SK', 'CZ', 'DE', 'SE', 'NO', 'DK', 'IT', 'NL', 'GR', 'IS', 'AT', 'XX', 'sk'];
const SCHEMES = ['0245', '9950', '0088', '0007', '0192', '0208', '0184', '0151', '0201', '0210', '9906', '9907', '9999', 'VAT', ''];

type Edit = (xml: string, spans: Span[], r: () => number) => { xml: string; what: string } | null;

function pick<T>(r: () => number, list: readonly T[]): T | undefined {
  return list.length === 0 ? undefined : list[Math.floor(r() * list.length)];
}

function replaceRange(xml: string, from: number, to: number, text: string): string {
  return xml.slice(0, from) + text + xml.slice(to);
}

const leaves = (spans: Span[]): Span[] => spans.filter((s) => s.text !== null && s.parent >= 0);

function leafEdit(filter: (s: Span, value: string) => boolean, change: (value: string, s: Span, r: () => number) => string | null, label: string): Edit {
  return (xml, spans, r) => {
    const targets = leaves(spans).filter((s) => filter(s, xml.slice(...(s.text as [number, number]))));
    const s = pick(r, targets);
    if (!s || !s.text) return null;
    const value = xml.slice(s.text[0], s.text[1]);
    const next = change(value, s, r);
    if (next === null || next === value) return null;
    return { xml: replaceRange(xml, s.text[0], s.text[1], escapeText(next)), what: `${label} ${s.name}: ${JSON.stringify(value).slice(0, 40)} -> ${JSON.stringify(next).slice(0, 40)}` };
  };
}

function shiftDate(value: string, r: () => number): string {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const roll = r();
  if (roll < 0.1) return `${y}-13-${String(d).padStart(2, '0')}`; // invalid month
  if (roll < 0.15) return `${y}-02-30`; // invalid day
  if (roll < 0.2) return value.replace(/-/g, '/');
  const date = new Date(Date.UTC(y, m - 1, d));
  date.setUTCDate(date.getUTCDate() + Math.round((r() - 0.5) * 800));
  return date.toISOString().slice(0, 10);
}

function changeIdentifier(value: string, r: () => number): string {
  if (value.length === 0) return 'X';
  const k = Math.floor(r() * value.length);
  const c = value[k] ?? '0';
  const replacement = /[0-9]/.test(c) ? String((Number(c) + 1 + Math.floor(r() * 8)) % 10) : /[A-Z]/.test(c) ? 'Q' : '7';
  const roll = r();
  if (roll < 0.15) return value.slice(0, k) + value.slice(k + 1); // drop a character
  if (roll < 0.25) return `${value}${replacement}`; // one longer
  return value.slice(0, k) + replacement + value.slice(k + 1);
}

function changeAmount(value: string, r: () => number): string | null {
  const m = /^(\s*)(-?)([0-9]+)(?:\.([0-9]+))?(\s*)$/.exec(value);
  if (!m) return null;
  const decimals = Math.max((m[4] ?? '').length, 2);
  const scaled = BigInt(`${m[2] ?? ''}${m[3] ?? '0'}${(m[4] ?? '').padEnd(decimals, '0')}`);
  const step = BigInt(10) ** BigInt(decimals - 2);
  const next = r() < 0.5 ? scaled + step : scaled - step;
  const neg = next < 0n;
  const digits = (neg ? -next : next).toString().padStart(decimals + 1, '0');
  return `${m[1] ?? ''}${neg ? '-' : ''}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}${m[5] ?? ''}`;
}

const EDITS: Record<string, Edit> = {
  delete: (xml, spans, r) => {
    const s = pick(r, spans.filter((x) => x.parent >= 0));
    if (!s) return null;
    return { xml: replaceRange(xml, s.start, s.end, ''), what: `delete ${s.name}` };
  },
  duplicate: (xml, spans, r) => {
    const s = pick(r, spans.filter((x) => x.parent >= 0));
    if (!s) return null;
    return { xml: replaceRange(xml, s.end, s.end, xml.slice(s.start, s.end)), what: `duplicate ${s.name}` };
  },
  reorder: (xml, spans, r) => {
    // swap an element with its next sibling element
    const pairs: [Span, Span][] = [];
    spans.forEach((s, k) => {
      if (s.parent < 0) return;
      const next = spans.slice(k + 1).find((x) => x.parent === s.parent);
      if (next) pairs.push([s, next]);
    });
    const p = pick(r, pairs);
    if (!p) return null;
    const [a, b] = p;
    const swapped = xml.slice(b.start, b.end) + xml.slice(a.end, b.start) + xml.slice(a.start, a.end);
    return { xml: replaceRange(xml, a.start, b.end, swapped), what: `reorder ${a.name} <-> ${b.name}` };
  },
  code: leafEdit(
    (s, v) => /(Code|ID|Indicator)$/.test(s.name) && v.trim().length <= 12,
    (v, s, r) => (/IdentificationCode$/.test(s.name) ? (pick(r, COUNTRIES) ?? 'XX') : /CurrencyCode$/.test(s.name) ? (pick(r, CURRENCIES) ?? 'XXX') : /Indicator$/.test(s.name) ? (pick(r, ['true', 'false', 'TRUE', '1', 'yes']) ?? 'x') : (pick(r, CODES) ?? 'X')),
    'code',
  ),
  date: leafEdit((_, v) => /^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$/.test(v), (v, _, r) => shiftDate(v.trim(), r), 'date'),
  identifier: leafEdit((s, v) => /(ID|Identifier|CompanyID|EndpointID)$/.test(s.name) && v.trim().length > 0, (v, _, r) => changeIdentifier(v, r), 'identifier'),
  amount: leafEdit((s, v) => /(Amount|Quantity|Percent|Numeric)$/.test(s.name) && /^\s*-?[0-9]+(\.[0-9]+)?\s*$/.test(v), (v, _, r) => changeAmount(v, r), 'amount'),
  currency: (xml, spans, r) => {
    const targets = spans.flatMap((s) => s.attrs.filter((a) => a.name === 'currencyID').map((a) => ({ s, a })));
    const t = pick(r, targets);
    if (!t) return null;
    const next = pick(r, CURRENCIES) ?? 'XXX';
    return { xml: replaceRange(xml, t.a.valueStart, t.a.valueEnd, next), what: `currency ${t.s.name}@currencyID -> ${next}` };
  },
  scheme: (xml, spans, r) => {
    const targets = spans.flatMap((s) => s.attrs.filter((a) => /^(schemeID|listID|unitCode|mimeCode)$/.test(a.name)).map((a) => ({ s, a })));
    const t = pick(r, targets);
    if (!t) return null;
    const next = t.a.name === 'schemeID' ? (pick(r, SCHEMES) ?? '') : (pick(r, CODES) ?? '');
    return { xml: replaceRange(xml, t.a.valueStart, t.a.valueEnd, next), what: `attribute ${t.s.name}@${t.a.name} -> ${next}` };
  },
  empty: leafEdit((_, v) => v.length > 0, () => '', 'empty'),
  pad: leafEdit((_, v) => v.trim().length > 0, (v, _, r) => (r() < 0.5 ? ` ${v} ` : `\n\t${v}`), 'pad'),
  recase: leafEdit((_, v) => /[A-Za-z]/.test(v), (v) => (v === v.toUpperCase() ? v.toLowerCase() : v.toUpperCase()), 'recase'),
};

export const EDIT_KINDS = Object.keys(EDITS);

/** The valid documents the corpus starts from: official examples, SK test invoices, generated invoices. */
export function baseDocuments(artifactsDir: string, repoRoot: string): CorpusDocument[] {
  const read = (dir: string): CorpusDocument[] =>
    fs.existsSync(dir) ? listXmlFiles(dir).map((f) => ({ name: path.relative(artifactsDir, f), xml: fs.readFileSync(f, 'utf8') })) : [];
  const ownGood = path.join(repoRoot, 'schemas/sk/tests/good');
  return [
    ...read(path.join(artifactsDir, 'examples/peppol-bis-3.0.21/rules/examples')),
    ...read(path.join(artifactsDir, 'examples/peppol-bis-3.0.19/rules/examples')),
    ...read(path.join(artifactsDir, 'examples/peppol-bis-3.0.19/rules/snippets')),
    ...read(path.join(artifactsDir, 'sk-tdd/testfiles/invoice')),
    ...(fs.existsSync(ownGood) ? listXmlFiles(ownGood).map((f) => ({ name: path.relative(repoRoot, f), xml: fs.readFileSync(f, 'utf8') })) : []),
    { name: 'generated-1', xml: generateInvoice(1) },
    { name: 'generated-10', xml: generateInvoice(10) },
  ].filter((d) => d.xml.length < 200_000); // the 3 MB attachment example would dominate the run time
}

/** `count` single-edit documents, deterministic for a seed. Names say which base and which edit. */
export function* mutationCorpus(bases: CorpusDocument[], seed: number, count: number): Generator<CorpusDocument> {
  const r = rng(seed);
  const scanned = new Map<number, Span[]>();
  let made = 0;
  let attempts = 0;
  while (made < count && attempts < count * 20) {
    attempts++;
    const b = Math.floor(r() * bases.length);
    const base = bases[b] as CorpusDocument;
    let spans = scanned.get(b);
    if (!spans) {
      spans = scanElements(base.xml);
      scanned.set(b, spans);
    }
    const kind = EDIT_KINDS[Math.floor(r() * EDIT_KINDS.length)] as string;
    const edit = (EDITS[kind] as Edit)(base.xml, spans, r);
    if (!edit) continue;
    made++;
    yield { name: `${seed}#${made} ${base.name}: ${edit.what}`, xml: edit.xml };
  }
}
