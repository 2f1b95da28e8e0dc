import { Type, type Static } from '@sinclair/typebox';
import { IsoDate, PageQuery, Uuid } from './common/index.ts';

const Money = (description: string) => Type.String({ pattern: '^\\d+\\.\\d{2}$', description });
const nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const PaymentMethod = Type.Union(
  ['bank_transfer', 'card', 'cash', 'offset', 'other'].map((m) => Type.Literal(m as 'bank_transfer' | 'card' | 'cash' | 'offset' | 'other')),
  { description: '`bank_transfer`, `card`, `cash`, `offset` (set off against a debt the other way) or `other`' },
);

/** POST /payments */
export const PaymentCreate = Type.Object({
  document_id: Uuid,
  amount: Type.String({
    pattern: '^\\d{1,12}(\\.\\d{1,2})?$', examples: ['123.00'],
    description: 'positive decimal string, at most 2 decimal places and 999999999999.99; 0 is refused (422 on `amount`). A refund (on a credit note) is at most '
      + 'its settlement\'s refund_remaining (else 422 `refund_exceeds_remaining`); the payments on one invoice add up to at most 999999999999.99',
  }),
  currency_code: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217; must be the document\'s currency (else 422 `currency_mismatch`)' }),
  paid_on: IsoDate({ description: 'the day the money moved' }),
  method: PaymentMethod,
  reference: Type.Optional(Type.String({ minLength: 1, maxLength: 140, description: 'bank reference, variable symbol or transaction id' })),
}, { additionalProperties: false, $id: 'PaymentCreate' });
export type PaymentCreate = Static<typeof PaymentCreate>;

/** POST /payments/{payment_id}/reverse */
export const PaymentReverse = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 500, description: 'why it no longer counts (recorded by mistake, returned by the bank)' }),
}, { additionalProperties: false, $id: 'PaymentReverse' });
export type PaymentReverse = Static<typeof PaymentReverse>;

/** A payment (on an invoice) or a refund (on a credit note). */
export const Payment = Type.Object({
  id: Uuid,
  document_id: Uuid,
  company_id: Uuid,
  kind: Type.Union([Type.Literal('payment'), Type.Literal('refund')], { description: '`payment` on an invoice, `refund` on a credit note' }),
  amount: Money('positive, two decimals'),
  currency_code: Type.String(),
  paid_on: Type.String({ format: 'date' }),
  method: PaymentMethod,
  reference: nullable(Type.String()),
  status: Type.Union([Type.Literal('recorded'), Type.Literal('reversed')], { description: '`reversed` ones no longer count, but stay listed' }),
  recorded_by: Type.String({ description: 'the API key or user that recorded it' }),
  recorded_at: Type.String({ format: 'date-time' }),
  reversed_by: nullable(Type.String()),
  reversed_at: nullable(Type.String({ format: 'date-time' })),
  reversal_reason: nullable(Type.String()),
}, { additionalProperties: false, $id: 'Payment' });
export type Payment = Static<typeof Payment>;

/** A document's payments come newest first: paging only. */
export const PaymentListQuery = Type.Object({ page: PageQuery.properties.page, page_size: PageQuery.properties.page_size });
