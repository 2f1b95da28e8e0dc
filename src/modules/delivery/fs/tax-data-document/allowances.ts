/**
 * Allowances and charges (BG-20/21 on the document, BG-27/28 on a line), every one of them and
 * exactly as stated: the TDD-adapted CEN rules recheck BR-CO-10/13/15 against them. A line's
 * carries no TaxCategory (ibr-tdd-60); a document one's TaxCategory only ID, Percent and TaxScheme
 * (ibr-tdd-63).
 */
import type { XmlNode } from '../../../../platform/xml/index.ts';
import { node, nodes } from '../../../invoices/index.ts';
import { cac, type Node } from '../../../invoices/index.ts';
import { copy, copyAmount } from './copy.ts';

function writeAllowanceCharge(target: Node, source: XmlNode, withTaxCategory: boolean): void {
  const ac = cac(target, 'AllowanceCharge');
  copy(ac, source, 'ChargeIndicator');
  copy(ac, source, 'AllowanceChargeReasonCode');
  copy(ac, source, 'AllowanceChargeReason');
  copy(ac, source, 'MultiplierFactorNumeric');
  copyAmount(ac, source, 'Amount');
  copyAmount(ac, source, 'BaseAmount');
  if (!withTaxCategory) return;
  const category = node(source, 'cac:TaxCategory');
  if (category !== null) writeTaxCategory(ac, 'TaxCategory', category, false);
}

/** A TaxCategory or ClassifiedTaxCategory: ID, Percent, [exemption reason code and text], TaxScheme/ID. */
export function writeTaxCategory(target: Node, element: string, source: XmlNode, withExemption: boolean): void {
  const category = cac(target, element);
  copy(category, source, 'ID');
  copy(category, source, 'Percent');
  if (withExemption) {
    copy(category, source, 'TaxExemptionReasonCode');
    copy(category, source, 'TaxExemptionReason');
  }
  const scheme = node(source, 'cac:TaxScheme');
  if (scheme !== null) copy(cac(category, 'TaxScheme'), scheme, 'ID');
}

export function writeDocumentAllowanceCharges(doc: Node, ubl: XmlNode): void {
  for (const source of nodes(ubl, 'cac:AllowanceCharge')) writeAllowanceCharge(doc, source, true);
}

export function writeLineAllowanceCharges(line: Node, source: XmlNode): void {
  for (const ac of nodes(source, 'cac:AllowanceCharge')) writeAllowanceCharge(line, ac, false);
}
