import type { InvoiceRequest, PartyBlock } from '../../schemas/invoices.ts';
import { checkFields } from '../shared/invalid-fields.ts';
import { normaliseVatId } from '../shared/slovak-identifiers.ts';
import { precedingReference, type PrecedingInvoiceFound } from './corrected-invoice.ts';
import type { InvoiceContent, Party, SellerDetails } from './model.ts';

const compact = (value: string) => value.replace(/\s+/g, '');
const compactOrNull = (value: string | null | undefined) => (value?.trim() ? compact(value) : null);
const trimmedOrNull = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

export function toParty(block: PartyBlock): Party {
  return {
    name: block.name.trim(),
    vat_id: normaliseVatId(block.vat_id),
    ico: compactOrNull(block.ico),
    dic: compactOrNull(block.dic),
    peppol_id: trimmedOrNull(block.peppol_id),
    street: block.street?.trim() ?? '',
    city: block.city?.trim() ?? '',
    postal_code: block.postal_code?.trim() ?? '',
    country_code: (block.country_code ?? 'SK').toUpperCase(),
  };
}

/**
 * A supplier block naming the company itself (its IČ DPH or IČO) but no address at all gets the
 * company's, so the seller's address the service knows is always written (SK-R-002..004, §74 of
 * the Slovak VAT Act). A block giving any part of an address is taken as it stands: parts of two
 * addresses are never mixed.
 */
function withCompanyAddress(given: Party, company: Party): Party {
  const noAddress = given.street === '' && given.city === '' && given.postal_code === '';
  if (!isCompany(given, company) || !noAddress || given.country_code !== company.country_code) return given;
  return { ...given, street: company.street, city: company.city, postal_code: company.postal_code };
}

/**
 * A payment due before the invoice is issued is a slip of the keyboard, never a payment term: the
 * create and the replacement of an invoice (and so each invoice of a bulk import) refuse it, 422 at
 * due_date. Both are YYYY-MM-DD here (the schema's strict date), so text order is date order.
 * Documents the service does not write from a request (received ones, credit notes) keep the
 * SK-J-07 warning of rules.ts instead.
 */
export function dueBeforeIssue(dates: { issue_date: string; due_date?: string | null }): boolean {
  return typeof dates.due_date === 'string' && dates.due_date !== '' && dates.due_date < dates.issue_date;
}

/** A supplier block naming the company itself (its IČ DPH or IČO). */
const isCompany = (given: Party, company: Party) =>
  (given.vat_id !== '' && given.vat_id === company.vat_id) || (given.ico !== null && given.ico === company.ico);

/** What the service already knows and fills in when the request leaves it out. */
export interface ContentDefaults {
  invoice_number: string;
  /** the company of the route (with its address, when it has one), with its IBAN */
  supplier: Party;
  supplier_iban: string | null;
  /** the company's profile beyond its party block: the invoice carries it when its seller is the company */
  seller_details?: SellerDetails;
  /** the directory customer named by customer_id, if any */
  buyer: Party | null;
  /** the company's invoice that preceding_invoice.id names, if it names one the company has */
  preceding_invoice: PrecedingInvoiceFound | null;
}

/**
 * A request as the invoice model: defaults filled (supplier from the company, a supplier block of
 * the company without address given the company's, buyer from the
 * directory customer, EUR, 380, credit transfer, C62, category S, line numbers by position; the
 * variable symbol and buyer reference from the number), identifiers normalised. Business rules
 * are checked on the result (rules.ts), not here.
 */
export function toInvoiceContent(request: InvoiceRequest, defaults: ContentDefaults): InvoiceContent {
  const buyer = request.buyer ? toParty(request.buyer) : defaults.buyer;
  checkFields((problem) => {
    if (!buyer) problem('buyer', 'give the buyer, or customer_id of a directory customer', request.buyer ?? null);
    if (dueBeforeIssue(request)) problem('due_date', `due_date ${request.due_date} is before issue_date ${request.issue_date}`, request.due_date);
  });
  const number = request.invoice_number?.trim() ?? defaults.invoice_number;
  const iban = request.supplier_iban === undefined ? defaults.supplier_iban : compactOrNull(request.supplier_iban)?.toUpperCase() ?? null;
  const supplier = request.supplier ? withCompanyAddress(toParty(request.supplier), defaults.supplier) : defaults.supplier;
  // the company's BIC goes with the company's account only, not with an IBAN the request names
  const details = defaults.seller_details && isCompany(supplier, defaults.supplier)
    ? { ...defaults.seller_details, bic: iban === defaults.supplier_iban ? defaults.seller_details.bic : '' }
    : null;
  return {
    invoice_number: number,
    invoice_type: request.invoice_type ?? '380',
    issue_date: request.issue_date,
    due_date: request.due_date ?? null,
    delivery_date: request.delivery_date && request.delivery_date !== request.issue_date ? request.delivery_date : null,
    currency_code: request.currency_code ?? 'EUR',
    supplier,
    buyer: buyer as Party,
    customer_id: request.customer_id ?? null,
    supplier_iban: iban,
    ...(details ? { seller_details: details } : {}),
    payment_means_code: request.payment_means_code ?? '30',
    variable_symbol: request.variable_symbol === undefined ? (/^\d{1,10}$/.test(number) ? number : null) : trimmedOrNull(request.variable_symbol),
    note: trimmedOrNull(request.note),
    buyer_reference: trimmedOrNull(request.buyer_reference) ?? number,
    order_reference: trimmedOrNull(request.order_reference),
    billing_reference: precedingReference(request.preceding_invoice, defaults.preceding_invoice),
    lines: request.lines.map((line, i) => ({
      line_number: line.line_number ?? i + 1,
      item_name: line.item_name.trim(),
      quantity: line.quantity,
      unit_code: line.unit_code ?? 'C62',
      unit_price: line.unit_price,
      vat_rate: line.vat_rate,
      vat_category_code: line.vat_category_code ?? 'S',
      vat_exemption_reason_code: trimmedOrNull(line.vat_exemption_reason_code),
      discount_percentage: line.discount_percentage ?? null,
      discount_amount: line.discount_amount ?? null,
    })),
  };
}
