// Encodes test documents in the encodings the XML spec's Appendix F detects, with or without a byte
// order mark, so the safe parser can be tried on each.
import fs from 'node:fs';
import path from 'node:path';
import { SLOVAK_SCHEMATRON } from '../../../src/platform/validation/artifacts.ts';

export type Utf = 'UTF-16LE' | 'UTF-16BE' | 'UTF-32LE' | 'UTF-32BE';
export const UTFS: readonly Utf[] = ['UTF-16LE', 'UTF-16BE', 'UTF-32LE', 'UTF-32BE'];

/** The text in `utf`, with a byte order mark when `bom`. */
export function encode(text: string, utf: Utf, bom: boolean): Buffer {
  const source = bom ? `\uFEFF${text}` : text;
  if (utf.startsWith('UTF-16')) {
    const bytes = Buffer.from(source, 'utf16le');
    return utf === 'UTF-16BE' ? bytes.swap16() : bytes;
  }
  const points = Array.from(source, (c) => c.codePointAt(0) ?? 0);
  const bytes = Buffer.alloc(points.length * 4);
  points.forEach((p, i) => (utf === 'UTF-32LE' ? bytes.writeUInt32LE(p, i * 4) : bytes.writeUInt32BE(p, i * 4)));
  return bytes;
}

/** What the entity below expands to: it must never appear in any output. */
export const ENTITY_TEXT = 'ENTITY-EXPANDED-7f3a';

/** Our good Slovak invoice, as text without its XML declaration. */
export function goodInvoiceBody(): string {
  const file = path.join(path.dirname(SLOVAK_SCHEMATRON), 'tests', 'good', 'sk-invoice.xml');
  return fs.readFileSync(file, 'utf8').replace(/^<\?xml[^>]*\?>\s*/, '');
}

/**
 * The good invoice declaring `encoding` (the 16/32-bit family name, as a hostile sender writes it),
 * with a DOCTYPE whose internal entity is used in a document-level note, and optionally an
 * external one used too (the XSD stage once threw on its unexpanded reference).
 */
export function invoiceWithEntity(utf: Utf, external = false): string {
  const family = utf.slice(0, 6);
  const externalDecl = external ? '<!ENTITY x SYSTEM "file:///etc/hostname">' : '';
  const use = external ? '&e;&x;' : '&e;';
  return `<?xml version="1.0" encoding="${family}"?>\n<!DOCTYPE Invoice [<!ENTITY e "${ENTITY_TEXT}">${externalDecl}]>\n${goodInvoiceBody().replace('</cbc:InvoiceTypeCode>', `</cbc:InvoiceTypeCode>\n  <cbc:Note>${use}</cbc:Note>`)}`;
}

/** The good invoice declaring the 16/32-bit family name of `utf`. */
export function goodInvoiceDeclaring(utf: Utf): string {
  return `<?xml version="1.0" encoding="${utf.slice(0, 6)}"?>\n${goodInvoiceBody()}`;
}
