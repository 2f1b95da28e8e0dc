/**
 * The 422 `credit_limit_exceeded` (the spec's flavour 3): `{detail: {error, message, details[]}}`,
 * one entry per offending index of the request, all at once. Each entry has `rule`, `field` and
 * exactly the extras the spec lists for its rule. Nothing is created when it is thrown (rule 9).
 */
import { DomainError } from '../shared/domain-error.ts';
import type { VatBucketKey } from './model.ts';

/** amounts[i].gross above what the bucket has left. */
interface AmountCapDetail extends VatBucketKey {
  rule: 'vat_rate_cap';
  field: string;
  left_base: string;
  left_gross: string;
}

/** The returned rows' base or VAT above what their bucket has left (each line in that bucket). */
interface ReturnCapDetail {
  rule: 'vat_rate_cap';
  field: string;
  left_base: string;
  left_vat: string;
  left_gross: string;
}

/** lines[i].quantity above the row's left_quantity. */
interface RowCapDetail {
  rule: 'row_cap';
  field: string;
  left_quantity: string;
}

/** A rate, category or exemption code the invoice lacks; two amounts in one bucket; an unknown or repeated row. */
interface PlainDetail {
  rule: 'vat_rate_not_on_invoice' | 'vat_rate_repeated' | 'row_not_on_invoice' | 'row_repeated';
  field: string;
}

export type CreditLimitDetail = AmountCapDetail | ReturnCapDetail | RowCapDetail | PlainDetail;

export class CreditLimitExceeded extends DomainError {
  constructor(readonly details: CreditLimitDetail[]) {
    super('credit_limit_exceeded', `the credit note does not fit what the invoice has left to credit (${details.length} finding(s))`, { details });
    this.name = 'CreditLimitExceeded';
  }
}
