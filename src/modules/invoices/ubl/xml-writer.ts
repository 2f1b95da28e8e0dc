/**
 * Thin helpers over the XML writer (src/platform/xml/write.ts) that always pass the namespace URI: an
 * element with a prefix the writer does not know would silently get `xmlns=""`, so no element is
 * ever created without one. Empty or null text writes nothing: PEPPOL-EN16931-R008 forbids empty
 * elements.
 */
import type { XmlElementWriter } from '../../../platform/xml/write.ts';
import { NS } from './ubl-names.ts';

export type Node = XmlElementWriter;

/** A cac: aggregate. */
export function cac(parent: Node, name: string): Node {
  return parent.ele(NS.cac, `cac:${name}`);
}

/** A cbc: basic element with text, unless the text is null or blank. */
export function cbc(parent: Node, name: string, text: string | null | undefined, attrs?: Record<string, string>): void {
  if (text === null || text === undefined || text.trim() === '') return;
  parent.ele(NS.cbc, `cbc:${name}`, attrs).txt(text);
}

/** A cbc: amount with its currency (PEPPOL-EN16931-R051: always the document currency). */
export function amount(parent: Node, name: string, value: string, currency: string): void {
  cbc(parent, name, value, { currencyID: currency });
}
