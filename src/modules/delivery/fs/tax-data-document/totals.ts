/**
 * VAT totals and the monetary totals (README §5.3).
 *
 * - TaxTotal: the one in the document currency with its whole breakdown (BT-110, BG-23, including
 *   the exemption reason code and text BT-121/BT-120 that phax drops: BR-E-10 and BR-O-10 need
 *   them, and the TDD-adapted rules cannot notice their absence, README §5.7). When a tax currency
 *   is stated, also the TaxTotal in it (BT-111), amount only (PEPPOL-EN16931-R054).
 * - pxs:MonetaryTotal from LegalMonetaryTotal; line, tax-exclusive, tax-inclusive and payable
 *   amounts are required.
 */
import type { XmlNode } from '../../../../platform/xml/index.ts';
import { node, nodes, text } from '../../../invoices/index.ts';
import { cac, type Node } from '../../../invoices/index.ts';
import { writeTaxCategory } from './allowances.ts';
import { copyAmount, copyRequired, pxs } from './copy.ts';
import { missing } from './errors.ts';

/** The TaxTotals whose TaxAmount is in `currency`, those with a breakdown first. */
function taxTotalsIn(ubl: XmlNode, currency: string): XmlNode[] {
  const inCurrency = nodes(ubl, 'cac:TaxTotal').filter((t) => text(t, 'cbc:TaxAmount/@currencyID') === currency);
  return [...inCurrency.filter((t) => node(t, 'cac:TaxSubtotal') !== null), ...inCurrency.filter((t) => node(t, 'cac:TaxSubtotal') === null)];
}

function writeSubtotal(taxTotal: Node, source: XmlNode): void {
  const sub = cac(taxTotal, 'TaxSubtotal');
  copyAmount(sub, source, 'TaxableAmount');
  copyAmount(sub, source, 'TaxAmount');
  const category = node(source, 'cac:TaxCategory');
  if (category !== null) writeTaxCategory(sub, 'TaxCategory', category, true);
}

export function writeTaxTotals(doc: Node, ubl: XmlNode, documentCurrency: string, taxCurrency: string | null): void {
  const [main] = taxTotalsIn(ubl, documentCurrency);
  if (main === undefined) throw missing(`cac:TaxTotal[cbc:TaxAmount/@currencyID = '${documentCurrency}']`, 'the VAT total in the document currency (BT-110)');
  const total = cac(doc, 'TaxTotal');
  copyRequired(total, main, 'TaxAmount', 'the VAT total in the document currency (BT-110)', { attrs: ['currencyID'], at: 'cac:TaxTotal' });
  for (const sub of nodes(main, 'cac:TaxSubtotal')) writeSubtotal(total, sub);

  if (taxCurrency === null) return;
  // the other TaxTotal in the tax currency; when both currencies are one, not the main one again
  const inTaxCurrency = taxTotalsIn(ubl, taxCurrency).filter((t) => !t.isSameNode(main));
  const [vatInTaxCurrency] = inTaxCurrency;
  if (vatInTaxCurrency === undefined) {
    throw missing(`cac:TaxTotal[cbc:TaxAmount/@currencyID = '${taxCurrency}']`, 'the VAT total in the tax currency (BT-111)');
  }
  copyAmount(cac(doc, 'TaxTotal'), vatInTaxCurrency, 'TaxAmount');
}

export function writeMonetaryTotal(doc: Node, ubl: XmlNode): void {
  const source = node(ubl, 'cac:LegalMonetaryTotal');
  if (source === null) throw missing('cac:LegalMonetaryTotal', 'the document totals (BG-22)');
  const target = pxs(doc, 'MonetaryTotal');
  const needed = (name: string, term: string) => copyRequired(target, source, name, term, { attrs: ['currencyID'], at: 'cac:LegalMonetaryTotal' });
  needed('LineExtensionAmount', 'the sum of line net amounts (BT-106)');
  needed('TaxExclusiveAmount', 'the total without VAT (BT-109)');
  needed('TaxInclusiveAmount', 'the total with VAT (BT-112)');
  copyAmount(target, source, 'AllowanceTotalAmount');
  copyAmount(target, source, 'ChargeTotalAmount');
  copyAmount(target, source, 'PrepaidAmount');
  copyAmount(target, source, 'PayableRoundingAmount');
  needed('PayableAmount', 'the amount due (BT-115)');
}
