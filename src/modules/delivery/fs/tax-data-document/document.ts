/**
 * pxs:ReportedDocument from a UBL Invoice or CreditNote (README §5.3), in the XSD's element order.
 * What is not named here is dropped: names, addresses beyond the country, contacts, references,
 * attachments, payment terms.
 *
 * Beyond phax: TaxPointDate (BT-7) is copied (Slovak invoices carry it), the header InvoicePeriod's
 * DescriptionCode (BT-8) is read from DescriptionCode (phax reads Description), and the delivery
 * date (BT-72) of the first Delivery is carried (ibr-tdd-85 allows nothing else there).
 */
import type { XmlNode } from '../../../../platform/xml/index.ts';
import { node, nodes, text } from '../../../invoices/index.ts';
import { cac, cbc, type Node } from '../../../invoices/index.ts';
import { writeDocumentAllowanceCharges } from './allowances.ts';
import { copy, pxs, required } from './copy.ts';
import { readKey } from './key.ts';
import { writeLines } from './lines.ts';
import { writeCustomer, writeSupplier, writeTaxRepresentative } from './parties.ts';
import { writePaymentMeans } from './payment.ts';
import { writeMonetaryTotal, writeTaxTotals } from './totals.ts';
import { reportedDocumentUuid } from './uuid.ts';

function writePeriod(doc: Node, ubl: XmlNode): void {
  const period = node(ubl, 'cac:InvoicePeriod');
  if (period === null) return;
  const fields = ['StartDate', 'EndDate', 'DescriptionCode'];
  if (fields.every((f) => text(period, `cbc:${f}`) === null)) return;
  const target = cac(doc, 'InvoicePeriod');
  for (const f of fields) copy(target, period, f);
}

/** Preceding invoices (BG-3): number with its scheme (BT-25) and issue date (BT-26), nothing else (ibr-tdd-28). */
function writeBillingReferences(doc: Node, ubl: XmlNode): void {
  for (const ref of nodes(ubl, "cac:BillingReference/cac:InvoiceDocumentReference[normalize-space(cbc:ID) != '']")) {
    const target = cac(cac(doc, 'BillingReference'), 'InvoiceDocumentReference');
    copy(target, ref, 'ID', { attrs: ['schemeID'] });
    copy(target, ref, 'IssueDate');
  }
}

function writeDelivery(doc: Node, ubl: XmlNode): void {
  const delivery = node(ubl, 'cac:Delivery');
  if (delivery !== null && text(delivery, 'cbc:ActualDeliveryDate') !== null) copy(cac(doc, 'Delivery'), delivery, 'ActualDeliveryDate');
}

export function writeReportedDocument(parent: Node, ubl: XmlNode, creditNote: boolean): void {
  const key = readKey(ubl, creditNote);
  const currency = required(ubl, 'cbc:DocumentCurrencyCode', 'the document currency (BT-5)');
  const taxCurrency = text(ubl, 'cbc:TaxCurrencyCode');

  const doc = pxs(pxs(parent, 'ReportedTransaction'), 'ReportedDocument');
  copy(doc, ubl, 'CustomizationID');
  copy(doc, ubl, 'ProfileID');
  cbc(doc, 'ID', key.documentId);
  cbc(doc, 'UUID', reportedDocumentUuid(key));
  cbc(doc, 'IssueDate', key.issueDate);
  copy(doc, ubl, 'IssueTime');
  pxs(doc, 'DocumentTypeCode', key.documentTypeCode);
  copy(doc, ubl, 'Note');
  copy(doc, ubl, 'TaxPointDate');
  cbc(doc, 'DocumentCurrencyCode', currency);
  cbc(doc, 'TaxCurrencyCode', taxCurrency);
  writePeriod(doc, ubl);
  writeBillingReferences(doc, ubl);
  writeSupplier(doc, ubl);
  writeCustomer(doc, ubl);
  writeTaxRepresentative(doc, ubl);
  writeDelivery(doc, ubl);
  writePaymentMeans(doc, ubl);
  writeDocumentAllowanceCharges(doc, ubl);
  writeTaxTotals(doc, ubl, currency, taxCurrency);
  writeMonetaryTotal(doc, ubl);
  writeLines(doc, ubl, creditNote);
}
