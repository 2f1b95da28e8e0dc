/**
 * UBL 2.1 Invoice or CreditNote → the invoice model, from the XML alone (the inbound Peppol and
 * SAPI-SK paths have nothing else). The inverse of build.ts: build → read → build is identical.
 *
 * What comes back:
 * - `content`: what a client would have sent. `customer_id` is always null (a directory link is ours,
 *   not the sender's). Type codes outside 380/381/325 become 380 (Invoice) or 381 (CreditNote);
 *   payment means outside 30/42/48 become 30 (58, SEPA credit transfer, is one), absent ones 30.
 * - `totals`: the amounts as the document states them (BT-106..BT-115, BG-23, BG-20/21), not
 *   recomputed, so a caller can compare them with computeTotals(content). Per line, UBL states only
 *   the net amount and its allowances/charges; line_vat and line_gross_amount are derived
 *   (round half-up of net × rate, informative as in the model).
 *
 * Mapping decisions:
 * - delivery_date: TaxPointDate, else an ActualDeliveryDate other than the issue date (the builder
 *   writes the issue date there for an intra-community supply without a delivery date).
 * - due_date: DueDate, else PaymentMeans/PaymentDueDate (where a credit note carries it).
 * - A line's VAT exemption reason: its own TaxExemptionReasonCode if present, else the BG-23 row of
 *   its category and rate (EN16931 allows one row per category and rate, so this is unambiguous).
 * - A line discount: one allowance with MultiplierFactorNumeric gives discount_percentage; otherwise
 *   Σ line allowances − Σ line charges gives discount_amount (line charges have no field of their own).
 * - unit_price is PriceAmount per unit: divided by BaseQuantity when one other than 1 is given.
 * - A document allowance without a reason code is our ZZZ correction when its reason is the
 *   correction's text; otherwise its reason_code is ''.
 * - Several Notes are joined with a newline.
 *
 * Not carried (the model has no field for them): contacts, trading names, PayeeParty, tax
 * representative, invoice period, delivery location and party, payment terms, PrepaidAmount (so
 * amount_due is PayableAmount as stated), attachments and references other than order/billing, item
 * descriptions/identifiers/classifications, line notes and periods, price discounts, VAT exemption
 * reason texts (only the VATEX code is carried), BIC, card and mandate details. A VAT category outside UNCL 5305 as EN16931 uses it is refused (UBL-UNSUPPORTED).
 */
import { Decimal } from 'decimal.js';
import type { XmlElement, XmlNode } from '../../../platform/xml/index.ts';
import {
  INVOICE_TYPE_CODES,
  PAYMENT_MEANS_CODES,
  VAT_CATEGORY_CODES,
  type BillingReference,
  type DocumentAllowanceCharge,
  type InvoiceContent,
  type InvoiceLine,
  type InvoiceTotals,
  type LineAmounts,
  type PaymentMeansCode,
  type VatCategoryCode,
  type VatSubtotal,
} from '../../../../commands/invoices/model.ts';
import { divide, isZero, money, netSum, plain } from './decimals.ts';
import { readParty } from './read-party.ts';
import { ZZZ, ZZZ_ALLOWANCE_REASON } from './ubl-names.ts';
import { node, nodes, readingUbl, text, ublDocumentType, UblReadError, withUblDocument } from './xml-reader.ts';

export { UblReadError } from './xml-reader.ts';

export interface UblDocument {
  content: InvoiceContent;
  /** The totals as the document states them. */
  totals: InvoiceTotals;
}

/** Reads a UBL Invoice or CreditNote. Throws UblReadError for unsafe, broken or non-UBL XML. */
export function readUbl(xml: string | Uint8Array): UblDocument {
  return withUblDocument(xml, ({ doc, documentType }) => readRoot(doc.root, documentType === 'CreditNote'));
}

/**
 * Reads a UBL Invoice or CreditNote already parsed, from its root element (one inside an envelope
 * reads as the same document on its own: every path is relative). Throws UblReadError as readUbl does.
 */
export function readUblElement(root: XmlElement): UblDocument {
  const documentType = ublDocumentType(root);
  return readingUbl(documentType, () => readRoot(root, documentType === 'CreditNote'));
}

function readRoot(root: XmlNode, creditNote: boolean): UblDocument {
  const breakdown = readBreakdown(root);
  const exemptionOf = (category: VatCategoryCode, rate: string): string | null =>
    breakdown.find((row) => row.vat_category_code === category && row.vat_rate === rate)?.vat_exemption_reason_code ?? null;

  const lineNodes = nodes(root, creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine');
  const lines = lineNodes.map((el, i) => readLine(el, i, creditNote, exemptionOf));
  const content = readContent(root, creditNote, lines.map((l) => l.line));
  const totals = readTotals(root, breakdown, lines.map((l) => l.amounts), exemptionOf);
  return { content, totals };
}

function readContent(root: XmlNode, creditNote: boolean, lines: InvoiceLine[]): InvoiceContent {
  const issueDate = text(root, 'cbc:IssueDate') ?? '';
  const actualDelivery = text(root, 'cac:Delivery/cbc:ActualDeliveryDate');
  const typeCode = text(root, creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode');
  const means = node(root, 'cac:PaymentMeans');
  const meansCode = means ? text(means, 'cbc:PaymentMeansCode') : null;
  const billing = node(root, 'cac:BillingReference/cac:InvoiceDocumentReference');
  const billingReference: BillingReference | null =
    billing === null ? null : { invoice_number: text(billing, 'cbc:ID') ?? '', issue_date: text(billing, 'cbc:IssueDate') };
  const notes = nodes(root, 'cbc:Note').map((n) => n.content.trim()).filter((n) => n !== '');
  return {
    invoice_number: text(root, 'cbc:ID') ?? '',
    invoice_type: oneOf(INVOICE_TYPE_CODES, typeCode) ?? (creditNote ? '381' : '380'),
    issue_date: issueDate,
    due_date: text(root, 'cbc:DueDate') ?? text(root, 'cac:PaymentMeans/cbc:PaymentDueDate'),
    delivery_date: text(root, 'cbc:TaxPointDate') ?? (actualDelivery !== issueDate ? actualDelivery : null),
    currency_code: text(root, 'cbc:DocumentCurrencyCode') ?? '',
    supplier: readParty(node(root, 'cac:AccountingSupplierParty/cac:Party')),
    buyer: readParty(node(root, 'cac:AccountingCustomerParty/cac:Party')),
    customer_id: null,
    supplier_iban: means ? text(means, 'cac:PayeeFinancialAccount/cbc:ID') : null,
    payment_means_code: paymentMeans(meansCode),
    variable_symbol: means ? text(means, 'cbc:PaymentID') : null,
    note: notes.length > 0 ? notes.join('\n') : null,
    buyer_reference: text(root, 'cbc:BuyerReference'),
    order_reference: text(root, 'cac:OrderReference/cbc:ID'),
    billing_reference: billingReference,
    lines,
  };
}

function paymentMeans(code: string | null): PaymentMeansCode {
  return oneOf(PAYMENT_MEANS_CODES, code) ?? '30';
}

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | null {
  return allowed.find((code) => code === value) ?? null;
}

function category(value: string | null, where: string): VatCategoryCode {
  if (value === null) return 'S';
  const code = oneOf(VAT_CATEGORY_CODES, value);
  if (code === null) throw new UblReadError('UBL-UNSUPPORTED', `${where}: VAT category ${value} is not supported`);
  return code;
}

function readTaxCategory(el: XmlNode, where: string): { category: VatCategoryCode; rate: string; exemption: string | null } {
  return {
    category: category(text(el, 'cbc:ID'), where),
    rate: plain(text(el, 'cbc:Percent') ?? '0', `${where} Percent`),
    exemption: text(el, 'cbc:TaxExemptionReasonCode'),
  };
}

/** The TaxTotal with subtotals (PEPPOL-EN16931-R053: exactly one), else the first. */
function mainTaxTotal(root: XmlNode): XmlNode | null {
  return node(root, 'cac:TaxTotal[cac:TaxSubtotal]') ?? node(root, 'cac:TaxTotal');
}

function readBreakdown(root: XmlNode): VatSubtotal[] {
  const taxTotal = mainTaxTotal(root);
  if (taxTotal === null) return [];
  return nodes(taxTotal, 'cac:TaxSubtotal').map((sub, i) => {
    const tc = node(sub, 'cac:TaxCategory');
    const where = `TaxSubtotal ${i + 1}`;
    const { category: code, rate, exemption } = tc ? readTaxCategory(tc, where) : { category: 'S' as const, rate: '0', exemption: null };
    return {
      vat_category_code: code,
      vat_rate: rate,
      vat_exemption_reason_code: exemption,
      taxable_amount: money(text(sub, 'cbc:TaxableAmount') ?? '0'),
      tax_amount: money(text(sub, 'cbc:TaxAmount') ?? '0'),
    };
  });
}

interface ReadLine {
  line: InvoiceLine;
  amounts: LineAmounts;
}

function readLine(
  el: XmlNode,
  index: number,
  creditNote: boolean,
  exemptionOf: (category: VatCategoryCode, rate: string) => string | null,
): ReadLine {
  const id = text(el, 'cbc:ID') ?? '';
  const lineNumber = /^\d{1,9}$/.test(id) ? Number(id) : index + 1;
  const where = `line ${id || index + 1}`;
  const quantityPath = creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  const tc = node(el, 'cac:Item/cac:ClassifiedTaxCategory');
  const tax = tc ? readTaxCategory(tc, where) : { category: 'S' as const, rate: '0', exemption: null };

  const price = text(el, 'cac:Price/cbc:PriceAmount') ?? '0';
  const baseQuantity = text(el, 'cac:Price/cbc:BaseQuantity');
  const unitPrice = baseQuantity !== null && !isZero(baseQuantity) && plain(baseQuantity) !== '1' ? divide(price, baseQuantity) : plain(price);

  const allowances = nodes(el, "cac:AllowanceCharge[normalize-space(cbc:ChargeIndicator) = 'false']");
  const charges = nodes(el, "cac:AllowanceCharge[normalize-space(cbc:ChargeIndicator) = 'true']");
  const amountOf = (ac: XmlNode) => text(ac, 'cbc:Amount') ?? '0';
  const percentage = allowances.length === 1 && charges.length === 0 && allowances[0] ? text(allowances[0], 'cbc:MultiplierFactorNumeric') : null;
  const discount = netSum(allowances.map(amountOf), charges.map(amountOf));
  const hasDiscount = allowances.length + charges.length > 0;

  const net = money(text(el, 'cbc:LineExtensionAmount') ?? '0');
  const vat = money(new Decimal(net).times(tax.rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));
  return {
    line: {
      line_number: lineNumber,
      item_name: text(el, 'cac:Item/cbc:Name') ?? '',
      quantity: plain(text(el, quantityPath) ?? '0', `${where} quantity`),
      unit_code: text(el, `${quantityPath}/@unitCode`) ?? 'C62',
      unit_price: unitPrice,
      vat_rate: tax.rate,
      vat_category_code: tax.category,
      vat_exemption_reason_code: tax.exemption ?? exemptionOf(tax.category, tax.rate),
      discount_percentage: percentage === null ? null : plain(percentage, `${where} MultiplierFactorNumeric`),
      discount_amount: percentage === null && hasDiscount ? discount : null,
    },
    amounts: {
      line_number: lineNumber,
      line_gross_before_discount: netSum([net, discount]),
      discount,
      line_net: net,
      line_vat: vat,
      line_gross_amount: netSum([net, vat]),
    },
  };
}

function readTotals(
  root: XmlNode,
  breakdown: VatSubtotal[],
  lines: LineAmounts[],
  exemptionOf: (category: VatCategoryCode, rate: string) => string | null,
): InvoiceTotals {
  const total = (name: string) => money(text(root, `cac:LegalMonetaryTotal/cbc:${name}`) ?? '0');
  const documentLevel: DocumentAllowanceCharge[] = nodes(root, 'cac:AllowanceCharge').map((el, i) => {
    const charge = text(el, 'cbc:ChargeIndicator') === 'true';
    const reason = text(el, 'cbc:AllowanceChargeReason') ?? '';
    const code = text(el, 'cbc:AllowanceChargeReasonCode');
    const tc = node(el, 'cac:TaxCategory');
    const tax = tc ? readTaxCategory(tc, `AllowanceCharge ${i + 1}`) : { category: 'S' as const, rate: '0', exemption: null };
    return {
      charge,
      reason_code: code ?? (!charge && reason === ZZZ_ALLOWANCE_REASON ? ZZZ : ''),
      reason,
      amount: money(text(el, 'cbc:Amount') ?? '0'),
      vat_category_code: tax.category,
      vat_rate: tax.rate,
      vat_exemption_reason_code: tax.exemption ?? exemptionOf(tax.category, tax.rate),
    };
  });
  const zzz = documentLevel.filter((ac) => ac.reason_code === ZZZ);
  const taxTotal = mainTaxTotal(root);
  return {
    lines,
    line_extension_amount: total('LineExtensionAmount'),
    allowance_total: total('AllowanceTotalAmount'),
    charge_total: total('ChargeTotalAmount'),
    allowances_charges: documentLevel,
    total_net: total('TaxExclusiveAmount'),
    total_vat: money((taxTotal ? text(taxTotal, 'cbc:TaxAmount') : null) ?? '0'),
    total_gross: total('TaxInclusiveAmount'),
    payable_rounding_amount: total('PayableRoundingAmount'),
    amount_due: total('PayableAmount'),
    zzz_correction_amount: netSum(
      zzz.filter((ac) => ac.charge).map((ac) => ac.amount),
      zzz.filter((ac) => !ac.charge).map((ac) => ac.amount),
    ),
    vat_breakdown: breakdown,
  };
}
