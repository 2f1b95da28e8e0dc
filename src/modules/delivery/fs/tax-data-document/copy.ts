/**
 * Copying UBL values into the TDD. A value is copied as the document states it (trimmed, never
 * reformatted: the TDD-adapted CEN rules recheck the totals arithmetic on exactly these strings),
 * and only the attributes a TDD rule allows are carried: ibr-tdd-51/58/59/61/62/66/68/69/73/75/76/79/83
 * refuse any other, e.g. a listVersionID on ItemClassificationCode.
 */
import type { XmlNode } from '../../../../platform/xml/index.ts';
import { node, text } from '../../../invoices/index.ts';
import { cbc, type Node } from '../../../invoices/index.ts';
import { missing } from './errors.ts';
import { PXS } from './names.ts';

/** A pxs: element (the TDD's own vocabulary). */
export function pxs(parent: Node, name: string, value?: string): Node {
  const el = parent.ele(PXS, `pxs:${name}`);
  if (value !== undefined) el.txt(value);
  return el;
}

/** The attributes of `source` that are listed in `keep` and not blank. */
function attributes(source: XmlNode, keep: readonly string[]): Record<string, string> | undefined {
  const attrs: Record<string, string> = {};
  for (const name of keep) {
    const value = text(source, `@${name}`);
    if (value !== null) attrs[name] = value;
  }
  return Object.keys(attrs).length > 0 ? attrs : undefined;
}

interface CopyOptions {
  /** Attributes to carry (none by default). */
  attrs?: readonly string[];
  /** Where the value is in the UBL, when not `cbc:<name>` (a credit note's CreditedQuantity). */
  from?: string;
}

/** The field's path from the document root, for TddBuildError: `at` is where `source` sits (`cac:InvoiceLine[2]`). */
function field(at: string | undefined, xpath: string): string {
  return at ? `${at}/${xpath}` : xpath;
}

/** Copies the first `cbc:<name>` of `source` into `target`; absent or blank writes nothing. Returns whether it wrote. */
export function copy(target: Node, source: XmlNode, name: string, options: CopyOptions = {}): boolean {
  const el = node(source, options.from ?? `cbc:${name}`);
  const value = el === null ? null : el.content.trim();
  if (el === null || value === null || value === '') return false;
  cbc(target, name, value, attributes(el, options.attrs ?? []));
  return true;
}

/** An amount: its currencyID is the one attribute an amount may carry. */
export function copyAmount(target: Node, source: XmlNode, name: string): boolean {
  return copy(target, source, name, { attrs: ['currencyID'] });
}

/** Like copy, but the field is one the TDD cannot do without (README §5.7). `what` names it for the message. */
export function copyRequired(target: Node, source: XmlNode, name: string, what: string, options: CopyOptions & { at?: string } = {}): void {
  if (!copy(target, source, name, options)) throw missing(field(options.at, options.from ?? `cbc:${name}`), what);
}

/** The trimmed text at `xpath`, or a TddBuildError naming the field (`at`: where `source` sits). */
export function required(source: XmlNode, xpath: string, what: string, at?: string): string {
  const value = text(source, xpath);
  if (value === null) throw missing(field(at, xpath), what);
  return value;
}
