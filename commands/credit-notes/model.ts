/**
 * Credit notes in the spec's language: the request shapes (`reason` selects one), the rows a credit
 * note credits, and the allowance read model (what an invoice has left to credit). Money,
 * quantities and rates are decimal strings, as on the wire; decimal.js computes inside.
 */
import type { VatCategoryCode } from '../invoices/model.ts';

export const CREDIT_REASONS = ['full_reversal', 'partial_credit', 'price_correction', 'returned_goods'] as const;
export type CreditReason = (typeof CREDIT_REASONS)[number];

/** One `amounts[]` entry of partial_credit and price_correction. */
export interface CreditAmount {
  vat_rate: string;
  /** default `S` */
  vat_category_code?: VatCategoryCode;
  /** may be omitted when it is unambiguous (rule 6) */
  vat_exemption_reason_code?: string | null;
  /** VAT-inclusive, 2 decimals, above 0 */
  gross: string;
}

/** One `lines[]` entry of returned_goods. */
export interface ReturnedLine {
  /** an invoice line's id (`lines[].id` of the invoice read) */
  source_line_id: string;
  /** above 0, at most the row's left_quantity */
  quantity: string;
}

export type CreditNoteRequest =
  | { reason: 'full_reversal'; note?: string | null }
  | { reason: 'partial_credit' | 'price_correction'; amounts: CreditAmount[]; note?: string | null }
  | { reason: 'returned_goods'; lines: ReturnedLine[]; note?: string | null };

/** A VAT bucket of an invoice: one row of its VAT breakdown, per rate, category and exemption code. */
export interface VatBucketKey {
  vat_rate: string;
  vat_category_code: VatCategoryCode;
  vat_exemption_reason_code: string | null;
}

/**
 * What a credit-note row stands for:
 * - `copy`: an invoice line copied whole by a full_reversal of an uncredited invoice;
 * - `return`: a returned quantity of an invoice line (returned_goods);
 * - `amount`: a VAT-inclusive amount at one rate (partial_credit, price_correction);
 * - `rest`: what a bucket had left, credited by a full_reversal after earlier credit notes;
 * - `rounding`: the part of a bucket its lines do not carry (its ZZZ correction and the difference
 *   between per-line and per-bucket VAT), credited with the copies, or the return that takes the
 *   last net and VAT of the bucket's rows.
 */
type CreditRowKind = 'copy' | 'return' | 'amount' | 'rest' | 'rounding';

/**
 * One row of a credit note: what it credits in one VAT bucket. Plain JSON, so events can carry it.
 * base + vat = gross exactly, always.
 */
export interface CreditRow extends VatBucketKey {
  kind: CreditRowKind;
  /** the invoice line a copy or return row stands for; null for the other kinds */
  source_line_id: string | null;
  /** the quantity of that line copied or returned; null for the other kinds */
  quantity: string | null;
  base: string;
  vat: string;
  gross: string;
}

/**
 * A credit note as it counts against its invoice: issued or queued ones count, drafts, failed,
 * rejected and pending_approval ones do not (the caller picks which to pass). Only `rows` matters
 * to the arithmetic; id and reason are there for whoever stores and shows it.
 */
export interface CreditedNote {
  credit_note_id: string;
  reason: CreditReason;
  rows: CreditRow[];
}

export interface AllowanceBucket extends VatBucketKey {
  base: string;
  vat: string;
  gross: string;
  credited_base: string;
  credited_gross: string;
  left_base: string;
  left_vat: string;
  left_gross: string;
}

export interface AllowanceLine {
  id: string;
  line_number: number;
  item_name: string;
  unit_code: string;
  unit_price: string;
  quantity: string;
  vat_rate: string;
  vat_category_code: VatCategoryCode;
  vat_exemption_reason_code: string | null;
  discount_percentage: string | null;
  discount_amount: string | null;
  line_net: string;
  line_vat: string;
  line_gross: string;
  returned_quantity: string;
  left_quantity: string;
  left_net: string;
  left_vat: string;
}

/** The spec's credit note allowance read model. */
export interface Allowance {
  invoice_id: string;
  currency_code: string;
  /** whether any credit note may be made now, whatever its reason */
  creditable: boolean;
  /** why not, or null */
  refusal: string | null;
  total_gross: string;
  credited_gross: string;
  left_gross: string;
  buckets: AllowanceBucket[];
  lines: AllowanceLine[];
}
