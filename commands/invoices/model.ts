/**
 * The invoice model, in the spec's field names. `InvoiceContent` is what a client sends (or what
 * the UBL reader extracts), normalised; `InvoiceTotals` is what the service computes from it.
 * Money, quantities and rates are decimal strings (decimal.js inside), never JS numbers.
 */

/**
 * UN/CEFACT 1001: 380 commercial invoice (default), 381 credit note, 325 proforma, 384 corrected
 * invoice (it names the invoice it corrects in billing_reference: corrected-invoice.ts).
 */
export const INVOICE_TYPE_CODES = ['380', '381', '325', '384'] as const;
export type InvoiceTypeCode = (typeof INVOICE_TYPE_CODES)[number];

/** UN/CEFACT 4461: 30 credit transfer (default), 42 payment to bank account, 48 card. */
export const PAYMENT_MEANS_CODES = ['30', '42', '48'] as const;
export type PaymentMeansCode = (typeof PAYMENT_MEANS_CODES)[number];

/** UNCL 5305 as EN16931 uses it. */
export const VAT_CATEGORY_CODES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;
export type VatCategoryCode = (typeof VAT_CATEGORY_CODES)[number];

/** Slovak VAT rates (percent) for category S. */
export const SLOVAK_STANDARD_RATES = ['5', '19', '23'] as const;

/** Supplier or buyer (the spec's party block). */
export interface Party {
  name: string;
  /** IČ DPH (SK + 10 digits) or a foreign VAT ID; '' for a party that is not VAT-registered */
  vat_id: string;
  /** IČO, 8 digits */
  ico: string | null;
  /** DIČ, 10 digits */
  dic: string | null;
  /** `<scheme>:<identifier>`, e.g. 0245:2020273893 or 9950:sk2020273893svctest */
  peppol_id: string | null;
  street: string;
  city: string;
  postal_code: string;
  country_code: string;
}

/**
 * What the issuing company's profile adds to the seller on its invoice (issue 40): the address's
 * second line (BT-36), the commercial register entry (BT-33, which a registered company must print),
 * the BIC of its account (BT-86) and a contact (BG-6). Taken when the invoice is made, so a document
 * prints the same whenever it is printed; none on invoices made before, on received ones, and when
 * the supplier block names another seller.
 */
export interface SellerDetails {
  additional_street: string;
  register_entry: string;
  bic: string;
  contact_name: string;
  contact_email: string;
  contact_phone: string;
}

export interface InvoiceLine {
  line_number: number;
  item_name: string;
  /** decimal string; may be negative (a returned item on an invoice) */
  quantity: string;
  /** UN/ECE Rec. 20, default C62 */
  unit_code: string;
  /** net price per unit, decimal string, never negative */
  unit_price: string;
  /** percent, decimal string: "23", "19", "5", "0" */
  vat_rate: string;
  vat_category_code: VatCategoryCode;
  /** VATEX code, required for E, AE, K, G, O (e.g. VATEX-EU-AE) */
  vat_exemption_reason_code: string | null;
  /** percent off quantity × unit_price; at most one of percentage and amount */
  discount_percentage: string | null;
  discount_amount: string | null;
}

/**
 * The preceding invoice (BG-3, UBL BillingReference): the one a credit note credits or a corrected
 * invoice (384) corrects.
 */
export interface BillingReference {
  invoice_number: string;
  issue_date: string | null;
  /** the preceding invoice's id when it is one of the company's own here (a 384 given `preceding_invoice.id`) */
  invoice_id?: string;
}

export interface InvoiceContent {
  invoice_number: string;
  invoice_type: InvoiceTypeCode;
  /** YYYY-MM-DD */
  issue_date: string;
  due_date: string | null;
  /** supply date when it differs from issue_date (UBL TaxPointDate and ActualDeliveryDate) */
  delivery_date: string | null;
  /** ISO 4217 */
  currency_code: string;
  supplier: Party;
  buyer: Party;
  customer_id: string | null;
  /** SK + 22 digits; required for payment means 30 (BR-61) */
  supplier_iban: string | null;
  /** the issuing company's profile beyond the party block (left out: none) */
  seller_details?: SellerDetails;
  payment_means_code: PaymentMeansCode;
  /** variable symbol: digits only (else warning SK-BR-04); UBL PaymentID */
  variable_symbol: string | null;
  /** free text, printed and carried in the UBL */
  note: string | null;
  /** Peppol needs BuyerReference or an order reference; defaults to the invoice number */
  buyer_reference: string | null;
  order_reference: string | null;
  billing_reference: BillingReference | null;
  lines: InvoiceLine[];
}

/** What a line comes to. */
export interface LineAmounts {
  line_number: number;
  /** quantity × unit_price before the discount, 2 decimals */
  line_gross_before_discount: string;
  /** the discount in money, 2 decimals, "0.00" without one */
  discount: string;
  /** BT-131: quantity × unit_price − discount, 2 decimals */
  line_net: string;
  /** line_net × rate, 2 decimals (informative: VAT is computed per breakdown group) */
  line_vat: string;
  /** the spec's line_gross_amount: line_net + line_vat */
  line_gross_amount: string;
}

/** A document-level allowance (charge: false) or charge (BG-20/BG-21). */
export interface DocumentAllowanceCharge {
  charge: boolean;
  /** UNCL 5189 (allowance) / 7161 (charge); ZZZ = mutually defined, used for the correction */
  reason_code: string;
  reason: string;
  amount: string;
  vat_category_code: VatCategoryCode;
  vat_rate: string;
  vat_exemption_reason_code: string | null;
}

/** One row of the VAT breakdown (BG-23): per category, rate and exemption reason. */
export interface VatSubtotal {
  vat_category_code: VatCategoryCode;
  vat_rate: string;
  vat_exemption_reason_code: string | null;
  /** BT-116 */
  taxable_amount: string;
  /** BT-117 = round(taxable × rate / 100, 2) */
  tax_amount: string;
}

export interface InvoiceTotals {
  lines: LineAmounts[];
  /** BT-106: Σ line_net */
  line_extension_amount: string;
  /** BT-107 / BT-108: document-level allowances and charges, the ZZZ correction included */
  allowance_total: string;
  charge_total: string;
  allowances_charges: DocumentAllowanceCharge[];
  /** BT-109 */
  total_net: string;
  /** BT-110 */
  total_vat: string;
  /** BT-112 */
  total_gross: string;
  /** BT-114 */
  payable_rounding_amount: string;
  /** BT-115 */
  amount_due: string;
  /** signed sum of the ZZZ charges (+) and allowances (−); "0.00" when there is none */
  zzz_correction_amount: string;
  vat_breakdown: VatSubtotal[];
}

/** A business-rule finding, in the spec's invoice-validation 422 shape. */
export interface RuleFinding {
  rule: string;
  message: string;
  severity: 'fatal' | 'warning';
  /** where in the request, e.g. "lines[2].vat_rate" */
  field?: string;
}
