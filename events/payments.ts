import type { DomainEvent } from './event.ts';

/*
 * Payments and refunds on a document (an invoice, or a credit note), in a stream of the document's
 * own beside its invoice stream (payments-{document_id}): recording money never changes the
 * document's version, so an If-Match taken before a payment stays good.
 */

/** bank_transfer | card | cash | offset (set off against a debt the other way) | other */
export type PaymentMethodPayload = 'bank_transfer' | 'card' | 'cash' | 'offset' | 'other';

/**
 * Money that moved for a document: `payment` on an invoice (the buyer paid the seller, or, on a
 * received invoice, we paid the supplier), `refund` on a credit note (the seller paid the
 * credited amount back). Amounts are positive decimal strings with two places.
 */
export type PaymentRecorded = DomainEvent<
  'PaymentRecorded',
  {
    payment_id: string;
    document_id: string;
    organisation_id: string;
    company_id: string;
    kind: 'payment' | 'refund';
    amount: string;
    currency_code: string;
    /** the day the money moved, YYYY-MM-DD */
    paid_on: string;
    method: PaymentMethodPayload;
    /** the bank's or the caller's reference (variable symbol, transaction id), or null */
    reference: string | null;
    recorded_by: string;
    recorded_at: string;
  }
>;

/** A payment recorded by mistake (or returned by the bank) no longer counts; its record stays. */
export type PaymentReversed = DomainEvent<
  'PaymentReversed',
  { payment_id: string; document_id: string; reason: string; reversed_by: string; reversed_at: string }
>;

export type PaymentEvent = PaymentRecorded | PaymentReversed;

export const paymentsStream = (documentId: string) => `payments-${documentId}`;
