/**
 * The invoice content, totals and findings as invoice events carry them (version 1), written out
 * here rather than imported from the live model (commands/invoices/model.ts): a change to the model
 * must not silently change what stored events mean. Deciders assign the model to these shapes and
 * evolve reads them back, so a model that drifts from them fails to compile at that mapping.
 * Money, quantities and rates are decimal strings, as stored.
 */

/** UN/CEFACT 1001 codes stored so far ('384' added with no new version: no earlier payload changes meaning). */
export type InvoiceTypeCodePayload = '380' | '381' | '325' | '384';
/** UN/CEFACT 4461 codes stored so far. */
export type PaymentMeansCodePayload = '30' | '42' | '48';
/** UNCL 5305 as EN16931 uses it. */
export type VatCategoryCodePayload = 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G' | 'O' | 'L' | 'M';

export interface PartyPayload {
  name: string;
  vat_id: string;
  ico: string | null;
  dic: string | null;
  peppol_id: string | null;
  street: string;
  city: string;
  postal_code: string;
  country_code: string;
}

export interface InvoiceLinePayload {
  line_number: number;
  item_name: string;
  quantity: string;
  unit_code: string;
  unit_price: string;
  vat_rate: string;
  vat_category_code: VatCategoryCodePayload;
  vat_exemption_reason_code: string | null;
  discount_percentage: string | null;
  discount_amount: string | null;
}

export interface BillingReferencePayload {
  invoice_number: string;
  issue_date: string | null;
  /** added as optional (version 1 stays): the preceding invoice's id when it is the company's own */
  invoice_id?: string;
}

export interface InvoiceContentPayload {
  invoice_number: string;
  invoice_type: InvoiceTypeCodePayload;
  issue_date: string;
  due_date: string | null;
  delivery_date: string | null;
  currency_code: string;
  supplier: PartyPayload;
  buyer: PartyPayload;
  customer_id: string | null;
  supplier_iban: string | null;
  payment_means_code: PaymentMeansCodePayload;
  variable_symbol: string | null;
  note: string | null;
  buyer_reference: string | null;
  order_reference: string | null;
  billing_reference: BillingReferencePayload | null;
  lines: InvoiceLinePayload[];
}

export interface LineAmountsPayload {
  line_number: number;
  line_gross_before_discount: string;
  discount: string;
  line_net: string;
  line_vat: string;
  line_gross_amount: string;
}

export interface AllowanceChargePayload {
  charge: boolean;
  reason_code: string;
  reason: string;
  amount: string;
  vat_category_code: VatCategoryCodePayload;
  vat_rate: string;
  vat_exemption_reason_code: string | null;
}

export interface VatSubtotalPayload {
  vat_category_code: VatCategoryCodePayload;
  vat_rate: string;
  vat_exemption_reason_code: string | null;
  taxable_amount: string;
  tax_amount: string;
}

/** The amounts an invoice was issued with, as computed then: later versions of the computation do not change them. */
export interface InvoiceTotalsPayload {
  lines: LineAmountsPayload[];
  line_extension_amount: string;
  allowance_total: string;
  charge_total: string;
  allowances_charges: AllowanceChargePayload[];
  total_net: string;
  total_vat: string;
  total_gross: string;
  payable_rounding_amount: string;
  amount_due: string;
  zzz_correction_amount: string;
  vat_breakdown: VatSubtotalPayload[];
}

export interface RuleFindingPayload {
  rule: string;
  message: string;
  severity: 'fatal' | 'warning';
  field?: string;
}
