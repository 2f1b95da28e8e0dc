import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from './common/index.ts';

const Money = (description?: string) => Type.String({ pattern: '^-?\\d+\\.\\d{2}$', ...(description ? { description } : {}) });
const Decimal = (description?: string) => Type.String({ pattern: '^-?\\d+(\\.\\d+)?$', ...(description ? { description } : {}) });
const nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** One VAT bucket of the invoice (a row of its VAT breakdown) with what is credited and left. */
export const AllowanceBucket = Type.Object({
  vat_rate: Decimal('percent'),
  vat_category_code: Type.String(),
  vat_exemption_reason_code: nullable(Type.String()),
  base: Money(), vat: Money(), gross: Money(),
  credited_base: Money(), credited_gross: Money(),
  left_base: Money(), left_vat: Money(), left_gross: Money(),
}, { additionalProperties: false, $id: 'AllowanceBucket' });

/** One invoice line with what returned_goods credit notes took of it. */
export const AllowanceLine = Type.Object({
  id: Uuid, line_number: Type.Integer(), item_name: Type.String(), unit_code: Type.String(), unit_price: Decimal(), quantity: Decimal(),
  vat_rate: Decimal(), vat_category_code: Type.String(), vat_exemption_reason_code: nullable(Type.String()),
  discount_percentage: nullable(Decimal()), discount_amount: nullable(Decimal()),
  line_net: Money(), line_vat: Money(), line_gross: Money(),
  returned_quantity: Decimal(), left_quantity: Decimal(), left_net: Money(), left_vat: Money(),
}, { additionalProperties: false, $id: 'AllowanceLine' });

/** The spec's credit note allowance read model. */
export const CreditNoteAllowance = Type.Object({
  invoice_id: Uuid,
  currency_code: Type.String(),
  creditable: Type.Boolean({ description: 'whether a credit note of any reason may be made now' }),
  refusal: nullable(Type.String({ description: 'why not' })),
  total_gross: Money(), credited_gross: Money(), left_gross: Money(),
  buckets: Type.Array(AllowanceBucket),
  lines: Type.Array(AllowanceLine),
}, { additionalProperties: false, $id: 'CreditNoteAllowance' });
export type CreditNoteAllowance = Static<typeof CreditNoteAllowance>;

/** POST …/credit-notes: `reason` selects which of amounts[] and lines[] is read (the spec's request shapes). */
export const CreditNoteBody = Type.Object({
  reason: Type.Union([Type.Literal('full_reversal'), Type.Literal('partial_credit'), Type.Literal('price_correction'), Type.Literal('returned_goods')], {
    description: '`full_reversal` (no other field), `partial_credit` and `price_correction` (amounts[]), `returned_goods` (lines[])',
  }),
  amounts: Type.Optional(Type.Array(Type.Object({
    vat_rate: Type.String({ maxLength: 10, description: 'percent, as on the invoice (e.g. "23")' }),
    vat_category_code: Type.Optional(Type.String({ maxLength: 3, description: 'UN/CEFACT 5305; default `S`' })),
    vat_exemption_reason_code: Type.Optional(Type.Union([Type.String({ maxLength: 30 }), Type.Null()])),
    gross: Type.String({ maxLength: 24, description: 'VAT-inclusive amount, above 0, at most 2 decimals' }),
  }, { additionalProperties: false }), { maxItems: 50, description: 'partial_credit and price_correction: one entry per VAT bucket' })),
  lines: Type.Optional(Type.Array(Type.Object({
    source_line_id: Uuid,
    quantity: Type.String({ maxLength: 24, description: 'returned quantity, above 0, at most the row\'s left_quantity' }),
  }, { additionalProperties: false }), { maxItems: 1000, description: 'returned_goods: the invoice rows returned (`lines[].id` of the invoice)' })),
  note: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
}, { additionalProperties: false, $id: 'CreditNoteBody' });
export type CreditNoteBody = Static<typeof CreditNoteBody>;
