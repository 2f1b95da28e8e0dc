/**
 * Thin helpers over xmlbuilder2 that always pass the namespace URI: `.ele('cac:X')` with a prefix
 * the builder does not know silently emits `xmlns=""`, so no element is ever created without one.
 * Empty or null text writes nothing: PEPPOL-EN16931-R008 forbids empty elements.
 */
import { NS } from './ubl-names.ts';
import { type XMLBuilder } from '../xml/write.ts';

export type Node = XMLBuilder;

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
