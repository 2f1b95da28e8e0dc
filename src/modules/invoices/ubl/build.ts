/**
 * The invoice model → a UBL 2.1 Invoice (380, 325) or CreditNote (381) under Peppol BIS Billing 3.0.
 *
 * The content says what was agreed; the totals (from computeTotals) say what it comes to. Every
 * amount in the document is taken from the totals, never recomputed here, so the document and the
 * stored invoice cannot disagree. Mapping decisions beyond the obvious ones:
 *
 * - Due date: Invoice cbc:DueDate; a UBL 2.1 CreditNote has no DueDate, so there it is
 *   PaymentMeans/PaymentDueDate (where Peppol maps BT-9 for credit notes).
 * - delivery_date → cbc:TaxPointDate (BT-7) and Delivery/ActualDeliveryDate (BT-72). An
 *   intra-community supply (category K) must state a delivery date and the country delivered to
 *   (BR-IC-11/12): without delivery_date the issue date is the delivery date (the model's rule:
 *   delivery_date is omitted when equal to issue_date), and the buyer's address is the delivery
 *   address. Only TaxPointDate is written from delivery_date alone, which lets the reader tell the two apart.
 * - buyer_reference defaults to the invoice number (PEPPOL-EN16931-R003 wants it or an order reference).
 * - PaymentMeans: code, PaymentID = variable symbol, PayeeFinancialAccount/ID = supplier_iban when set
 *   (with FinancialInstitutionBranch/ID = the company's BIC, when it has one).
 * - Document-level allowances and charges are the totals' (the ZZZ correction); see ubl-names.ts for
 *   why a ZZZ allowance carries no reason code. Their TaxCategory carries no exemption reason (UBL-CR-480);
 *   neither does a line's ClassifiedTaxCategory (UBL-CR-600): BG-23 carries it, one row per category.
 * - A line discount is a line AllowanceCharge, reason code 95; a percentage one also states
 *   MultiplierFactorNumeric and BaseAmount (PEPPOL-EN16931-R040/041/042), so the reader gets the
 *   percentage back.
 * - Category O (not subject to VAT) has no rate (BR-O-05 and friends), so no Percent is written for
 *   it; and a document with an O line names neither party's VAT identifier (BR-O-02 to BR-O-04,
 *   carriesVatIds in rules.ts). The content keeps the vat_id; the DIČ (TAX scheme) and IČO stay, so
 *   the parties remain identified. rules.ts refuses O beside another category (BR-O-11) and a
 *   supplier the document would leave without identifier (BR-CO-26).
 * - 325 (proforma) is built as an Invoice, but Peppol's profile 01 does not allow that type code
 *   (PEPPOL-EN16931-P0100): a proforma is not a tax document and is not sent over Peppol.
 */
import type {
  DocumentAllowanceCharge,
  InvoiceContent,
  InvoiceLine,
  InvoiceTotals,
  LineAmounts,
  VatCategoryCode,
} from '../../../../commands/invoices/model.ts';
import { carriesVatIds } from '../../../../commands/invoices/rules.ts';
import { money, plain } from './decimals.ts';
import { writeAddress, writeParty } from './build-party.ts';
import {
  DISCOUNT_REASON,
  DISCOUNT_REASON_CODE,
  NS,
  PEPPOL_CUSTOMIZATION_ID,
  PEPPOL_PROFILE_ID,
  ZZZ,
} from './ubl-names.ts';
import { amount, cac, cbc, type Node } from './xml-writer.ts';
import { newXmlDocument } from '../../../platform/xml/write.ts';

/** Builds the UBL XML (UTF-8, indented) of an invoice or credit note. */
export function buildUbl(content: InvoiceContent, totals: InvoiceTotals): string {
  const creditNote = content.invoice_type === '381';
  const currency = content.currency_code;
  const xml = newXmlDocument(creditNote ? NS.creditNote : NS.invoice, creditNote ? 'CreditNote' : 'Invoice', { 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc });
  const doc = xml.root;
  const intraCommunity = content.lines.some((l) => l.vat_category_code === 'K');

  cbc(doc, 'CustomizationID', PEPPOL_CUSTOMIZATION_ID);
  cbc(doc, 'ProfileID', PEPPOL_PROFILE_ID);
  cbc(doc, 'ID', content.invoice_number);
  cbc(doc, 'IssueDate', content.issue_date);
  if (creditNote) {
    cbc(doc, 'TaxPointDate', content.delivery_date);
    cbc(doc, 'CreditNoteTypeCode', content.invoice_type);
    cbc(doc, 'Note', content.note);
  } else {
    cbc(doc, 'DueDate', content.due_date);
    cbc(doc, 'InvoiceTypeCode', content.invoice_type);
    cbc(doc, 'Note', content.note);
    cbc(doc, 'TaxPointDate', content.delivery_date);
  }
  cbc(doc, 'DocumentCurrencyCode', currency);
  cbc(doc, 'BuyerReference', content.buyer_reference ?? content.invoice_number);
  if (content.order_reference) cbc(cac(doc, 'OrderReference'), 'ID', content.order_reference);
  if (content.billing_reference) {
    const ref = cac(cac(doc, 'BillingReference'), 'InvoiceDocumentReference');
    cbc(ref, 'ID', content.billing_reference.invoice_number);
    cbc(ref, 'IssueDate', content.billing_reference.issue_date);
  }
  const vatIds = carriesVatIds(content);
  writeParty(doc, 'AccountingSupplierParty', content.supplier, vatIds, content.seller_details);
  writeParty(doc, 'AccountingCustomerParty', content.buyer, vatIds);

  const deliveredOn = content.delivery_date ?? (intraCommunity ? content.issue_date : null);
  if (deliveredOn) {
    const delivery = cac(doc, 'Delivery');
    cbc(delivery, 'ActualDeliveryDate', deliveredOn);
    if (intraCommunity) writeAddress(cac(delivery, 'DeliveryLocation'), 'Address', content.buyer);
  }

  const means = cac(doc, 'PaymentMeans');
  cbc(means, 'PaymentMeansCode', content.payment_means_code);
  if (creditNote) cbc(means, 'PaymentDueDate', content.due_date);
  cbc(means, 'PaymentID', content.variable_symbol);
  if (content.supplier_iban) {
    const account = cac(means, 'PayeeFinancialAccount');
    cbc(account, 'ID', content.supplier_iban);
    // BT-86, the BIC of the company's own account (content.ts leaves it out for another IBAN)
    if (content.seller_details?.bic) cbc(cac(account, 'FinancialInstitutionBranch'), 'ID', content.seller_details.bic);
  }

  for (const ac of totals.allowances_charges) writeDocumentAllowanceCharge(doc, ac, currency);

  const taxTotal = cac(doc, 'TaxTotal');
  amount(taxTotal, 'TaxAmount', money(totals.total_vat), currency);
  for (const row of totals.vat_breakdown) {
    const sub = cac(taxTotal, 'TaxSubtotal');
    amount(sub, 'TaxableAmount', money(row.taxable_amount), currency);
    amount(sub, 'TaxAmount', money(row.tax_amount), currency);
    writeTaxCategory(sub, 'TaxCategory', row.vat_category_code, row.vat_rate, row.vat_exemption_reason_code);
  }

  const allowances = totals.allowances_charges.filter((ac) => !ac.charge);
  const charges = totals.allowances_charges.filter((ac) => ac.charge);
  const monetary = cac(doc, 'LegalMonetaryTotal');
  amount(monetary, 'LineExtensionAmount', money(totals.line_extension_amount), currency);
  amount(monetary, 'TaxExclusiveAmount', money(totals.total_net), currency);
  amount(monetary, 'TaxInclusiveAmount', money(totals.total_gross), currency);
  if (allowances.length > 0) amount(monetary, 'AllowanceTotalAmount', money(totals.allowance_total), currency);
  if (charges.length > 0) amount(monetary, 'ChargeTotalAmount', money(totals.charge_total), currency);
  if (money(totals.payable_rounding_amount) !== '0.00') {
    amount(monetary, 'PayableRoundingAmount', money(totals.payable_rounding_amount), currency);
  }
  amount(monetary, 'PayableAmount', money(totals.amount_due), currency);

  const amounts = new Map(totals.lines.map((l) => [l.line_number, l]));
  for (const line of content.lines) {
    const lineAmounts = amounts.get(line.line_number);
    if (!lineAmounts) throw new Error(`totals have no amounts for line ${line.line_number}`);
    writeLine(doc, line, lineAmounts, currency, creditNote);
  }
  return xml.end();
}

function writeTaxCategory(
  parent: Node,
  element: 'TaxCategory' | 'ClassifiedTaxCategory',
  category: VatCategoryCode,
  rate: string,
  exemptionCode: string | null,
): void {
  const tc = cac(parent, element);
  cbc(tc, 'ID', category);
  if (category !== 'O') cbc(tc, 'Percent', plain(rate, 'vat_rate'));
  cbc(tc, 'TaxExemptionReasonCode', exemptionCode);
  cbc(cac(tc, 'TaxScheme'), 'ID', 'VAT');
}

function writeDocumentAllowanceCharge(doc: Node, ac: DocumentAllowanceCharge, currency: string): void {
  const el = cac(doc, 'AllowanceCharge');
  cbc(el, 'ChargeIndicator', ac.charge ? 'true' : 'false');
  if (ac.charge || ac.reason_code !== ZZZ) cbc(el, 'AllowanceChargeReasonCode', ac.reason_code);
  cbc(el, 'AllowanceChargeReason', ac.reason);
  amount(el, 'Amount', money(ac.amount), currency);
  writeTaxCategory(el, 'TaxCategory', ac.vat_category_code, ac.vat_rate, null);
}

function writeLine(doc: Node, line: InvoiceLine, amounts: LineAmounts, currency: string, creditNote: boolean): void {
  const el = cac(doc, creditNote ? 'CreditNoteLine' : 'InvoiceLine');
  cbc(el, 'ID', String(line.line_number));
  cbc(el, creditNote ? 'CreditedQuantity' : 'InvoicedQuantity', plain(line.quantity, 'quantity'), {
    unitCode: line.unit_code || 'C62',
  });
  amount(el, 'LineExtensionAmount', money(amounts.line_net), currency);

  // computeTotals lets discount_amount win when both are (wrongly) given; so does the document
  const percentage = !present(line.discount_amount) && present(line.discount_percentage) ? line.discount_percentage : null;
  if (percentage !== null || present(line.discount_amount)) {
    const ac = cac(el, 'AllowanceCharge');
    cbc(ac, 'ChargeIndicator', 'false');
    cbc(ac, 'AllowanceChargeReasonCode', DISCOUNT_REASON_CODE);
    cbc(ac, 'AllowanceChargeReason', DISCOUNT_REASON);
    if (percentage !== null) cbc(ac, 'MultiplierFactorNumeric', plain(percentage, 'discount_percentage'));
    amount(ac, 'Amount', money(amounts.discount), currency);
    if (percentage !== null) amount(ac, 'BaseAmount', money(amounts.line_gross_before_discount), currency);
  }

  const item = cac(el, 'Item');
  cbc(item, 'Name', line.item_name);
  writeTaxCategory(item, 'ClassifiedTaxCategory', line.vat_category_code, line.vat_rate, null);
  amount(cac(el, 'Price'), 'PriceAmount', plain(line.unit_price, 'unit_price'), currency);
}

function present(value: string | null): value is string {
  return value !== null && value.trim() !== '';
}
