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
