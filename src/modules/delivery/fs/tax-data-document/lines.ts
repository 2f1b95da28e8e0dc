/**
 * One pxs:DocumentLine per InvoiceLine or CreditNoteLine (README §5.3, ibr-tdd-74 to 83).
 *
 * - A credit note's CreditedQuantity goes into cbc:InvoicedQuantity (the TDD has no other), with
 *   its unitCode and nothing else (ibr-tdd-75). Signs are never changed.
 * - Item: the first Description, Name, every CommodityClassification code with its listID only
 *   (phax also copies listVersionID, which ibr-tdd-79 refuses), ClassifiedTaxCategory without
 *   exemption reason (ibr-tdd-80).
 * - Price: PriceAmount and BaseQuantity; a price discount (Price/AllowanceCharge) is not allowed
 *   (ibr-tdd-82): the net price already reflects it.
 * Required, as phax requires them: ID, quantity with unit, net amount, item name, item VAT
 * category and price.
 */
import type { XmlNode } from '../../../../platform/xml/index.ts';
import { node, nodes, text } from '../../../invoices/index.ts';
import { cac, type Node } from '../../../invoices/index.ts';
import { writeLineAllowanceCharges, writeTaxCategory } from './allowances.ts';
import { copy, copyRequired, pxs, required } from './copy.ts';
import { missing } from './errors.ts';

function writePeriod(line: Node, source: XmlNode): void {
  const period = node(source, 'cac:InvoicePeriod');
  if (period === null || (text(period, 'cbc:StartDate') === null && text(period, 'cbc:EndDate') === null)) return;
  const target = cac(line, 'InvoicePeriod');
  copy(target, period, 'StartDate');
  copy(target, period, 'EndDate');
}

function writeItem(line: Node, source: XmlNode, where: string): void {
  const item = node(source, 'cac:Item');
  if (item === null) throw missing(`${where}/cac:Item`, `the item of ${where} (BG-31)`);
  required(item, 'cbc:Name', `the item name of ${where} (BT-153)`, `${where}/cac:Item`);
  const category = node(item, 'cac:ClassifiedTaxCategory');
  if (category === null) throw missing(`${where}/cac:Item/cac:ClassifiedTaxCategory`, `the VAT category of ${where} (BT-151)`);

  const target = cac(line, 'Item');
  copy(target, item, 'Description');
  copy(target, item, 'Name');
  for (const classification of nodes(item, "cac:CommodityClassification[normalize-space(cbc:ItemClassificationCode) != '']")) {
    copy(cac(target, 'CommodityClassification'), classification, 'ItemClassificationCode', { attrs: ['listID'] });
  }
  writeTaxCategory(target, 'ClassifiedTaxCategory', category, false);
}

function writePrice(line: Node, source: XmlNode, where: string): void {
  const price = node(source, 'cac:Price');
  if (price === null) throw missing(`${where}/cac:Price`, `the price of ${where} (BG-29)`);
  const target = cac(line, 'Price');
  copyRequired(target, price, 'PriceAmount', `the net price of ${where} (BT-146)`, { attrs: ['currencyID'], at: `${where}/cac:Price` });
  copy(target, price, 'BaseQuantity', { attrs: ['unitCode'] });
}

function writeLine(doc: Node, source: XmlNode, index: number, creditNote: boolean): void {
  const element = creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const where = `${element}[${index + 1}]`;
  const quantity = creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  required(source, 'cbc:ID', `the identifier of ${where} (BT-126)`, where);
  required(source, quantity, `the quantity of ${where} (BT-129)`, where);
  required(source, `${quantity}/@unitCode`, `the unit of measure of ${where} (BT-130)`, where);

  const line = pxs(doc, 'DocumentLine');
  copy(line, source, 'ID');
  copy(line, source, 'Note');
  copy(line, source, 'InvoicedQuantity', { from: quantity, attrs: ['unitCode'] });
  copyRequired(line, source, 'LineExtensionAmount', `the net amount of ${where} (BT-131)`, { attrs: ['currencyID'], at: where });
  writePeriod(line, source);
  writeLineAllowanceCharges(line, source);
  writeItem(line, source, where);
  writePrice(line, source, where);
}

export function writeLines(doc: Node, ubl: XmlNode, creditNote: boolean): void {
  const element = creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const lines = nodes(ubl, element);
  if (lines.length === 0) throw missing(element, 'at least one line (BG-25)');
  lines.forEach((source, i) => writeLine(doc, source, i, creditNote));
}
