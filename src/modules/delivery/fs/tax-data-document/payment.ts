/**
 * Payment means (BG-16), all of them: code with its name (BT-81/82), the first payment id (BT-83),
 * card (BG-18), credit transfer account (BG-17, without the account name: ibr-tdd-53) and direct
 * debit mandate (BG-19). phax leaves the mandate out; ibr-tdd-55/56 allow it, so it is carried.
 */
import type { XmlNode } from '../../../../platform/xml/index.ts';
import { node, nodes } from '../../../invoices/index.ts';
import { cac, type Node } from '../../../invoices/index.ts';
import { copy } from './copy.ts';

function writeCard(means: Node, source: XmlNode): void {
  const card = node(source, 'cac:CardAccount');
  if (card === null) return;
  const target = cac(means, 'CardAccount');
  copy(target, card, 'PrimaryAccountNumberID');
  copy(target, card, 'NetworkID');
  copy(target, card, 'HolderName');
}

function writePayeeAccount(means: Node, source: XmlNode): void {
  const account = node(source, 'cac:PayeeFinancialAccount');
  if (account === null) return;
  const target = cac(means, 'PayeeFinancialAccount');
  copy(target, account, 'ID');
  const branch = node(account, "cac:FinancialInstitutionBranch[normalize-space(cbc:ID) != '']");
  if (branch !== null) copy(cac(target, 'FinancialInstitutionBranch'), branch, 'ID');
}

function writeMandate(means: Node, source: XmlNode): void {
  const mandate = node(source, 'cac:PaymentMandate');
  if (mandate === null) return;
  const target = cac(means, 'PaymentMandate');
  copy(target, mandate, 'ID');
  const payer = node(mandate, "cac:PayerFinancialAccount[normalize-space(cbc:ID) != '']");
  if (payer !== null) copy(cac(target, 'PayerFinancialAccount'), payer, 'ID');
}

export function writePaymentMeans(doc: Node, ubl: XmlNode): void {
  for (const source of nodes(ubl, 'cac:PaymentMeans')) {
    const means = cac(doc, 'PaymentMeans');
    copy(means, source, 'PaymentMeansCode', { attrs: ['name'] });
    copy(means, source, 'PaymentID');
    writeCard(means, source);
    writePayeeAccount(means, source);
    writeMandate(means, source);
  }
}
