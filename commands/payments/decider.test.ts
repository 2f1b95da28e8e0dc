import { expect } from 'chai';
import type { PaymentRecorded } from '../../events/payments.ts';
import { invoiceDecider } from '../invoices/decider.ts';
import type { InvoiceStatus } from '../../events/invoices.ts';
import type { InvoiceState, KnownInvoice } from '../invoices/state.ts';
import { created, organisationWide, otherCompany, otherOrganisation, scope } from '../invoices/test-fixtures.ts';
import { fold } from '../shared/decider.ts';
import { specFor } from '../shared/given.ts';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { paymentDecider, type PaymentCommand } from './decider.ts';
import type { InvoiceFacts } from './settlement.ts';

const AT = '2026-11-25T09:00:00.000Z';
const given = specFor(paymentDecider);
const drafted = fold(invoiceDecider, [created]) as KnownInvoice;

/** The fixture invoice (EUR, 123.00 gross) in another status or as another type of document. */
const documentIn = (status: InvoiceStatus, changes: { invoice_type?: '380' | '381' | '325'; source?: 'api' | 'peppol' } = {}): InvoiceState => ({
  ...drafted, status, source: changes.source ?? 'api', content: { ...drafted.content, invoice_type: changes.invoice_type ?? '380' },
});
const delivered = documentIn('delivered');
const creditNote = (status: InvoiceStatus) => documentIn(status, { invoice_type: '381' });

const record = (changes: Partial<Extract<PaymentCommand, { type: 'RecordPayment' }>> = {}): PaymentCommand => ({
  type: 'RecordPayment', payment_id: 'p1', document: delivered, credited_invoice: null, scope: organisationWide, amount: '100', currency_code: 'EUR', paid_on: '2026-11-25',
  method: 'bank_transfer', reference: 'VS 2026000001', recorded_by: 'k1', at: AT, ...changes,
});
const recorded = (changes: Partial<PaymentRecorded['data']> = {}): PaymentRecorded => ({
  type: 'PaymentRecorded',
  data: {
    payment_id: 'p1', document_id: 'i1', organisation_id: 'o1', company_id: 'c1', kind: 'payment', amount: '100.00', currency_code: 'EUR',
    paid_on: '2026-11-25', method: 'bank_transfer', reference: 'VS 2026000001', recorded_by: 'k1', recorded_at: AT, ...changes,
  },
});
const reverse = (changes: Partial<Extract<PaymentCommand, { type: 'ReversePayment' }>> = {}): PaymentCommand => ({
  type: 'ReversePayment', payment_id: 'p1', scope: organisationWide, reason: 'bank returned it', reversed_by: 'k2', at: '2026-11-26T08:00:00.000Z', ...changes,
});
const reversed = { type: 'PaymentReversed' as const, data: { payment_id: 'p1', document_id: 'i1', reason: 'bank returned it', reversed_by: 'k2', reversed_at: '2026-11-26T08:00:00.000Z' } };
const onAmount = (e: InvalidFields) => expect(e.problems.map((p) => p.loc.join('.'))).to.deep.equal(['body.amount']);

/** A credit note made through the credit-note route against invoice i1 (100.00 EUR), delivered: cn1, of `gross` in the invoice's facts. */
const cn1 = { ...creditNote('delivered'), invoice_id: 'cn1', invoice_number: 'DOB-2026-1', credited_invoice: { invoice_id: 'i1', invoice_number: '2026000001', issue_date: '2026-11-22', reason: 'partial_credit' as const } };
/** Invoice i1 of 100.00 as its streams hold it: `paid` on it and its credit notes (cn1 first). */
const invoiceI1 = (paid: string, ...credit_notes: { id: string; gross: string; issued?: boolean; refunded?: string }[]): InvoiceFacts => ({
  invoice_id: 'i1', total_gross: '100.00', paid,
  credit_notes: credit_notes.map((c) => ({ credit_note_id: c.id, gross: c.gross, issued: c.issued ?? true, refunded: c.refunded ?? '0.00' })),
});
const refund = (amount: string, credited_invoice: InvoiceFacts | null, payment_id = 'r2') =>
  record({ payment_id, document: cn1, credited_invoice, amount });
const refunded = (amount: string, payment_id = 'r1') => recorded({ payment_id, document_id: 'cn1', kind: 'refund', amount });
const beyondRemaining = (refund_remaining: string, amount: string) => ['refund_exceeds_remaining', { loc: ['body', 'amount'], amount, refund_remaining, currency_code: 'EUR' }] as const;

describe('payments and refunds (the payments-{document} stream)', () => {
  describe('recording', () => {
    it('a payment on an issued invoice is recorded with its amount in two decimals, in the document\'s organisation and company', () =>
      given([]).when(record()).then([recorded()]));

    it('the company\'s own route sees the invoice too; another company or organisation gets 404 invoice_not_found', () => {
      given([]).when(record({ scope })).then([recorded()]);
      given([]).when(record({ scope: otherCompany })).thenThrows('invoice_not_found');
      given([]).when(record({ scope: otherOrganisation })).thenThrows('invoice_not_found');
      given([]).when(record({ document: { status: 'none' } })).thenThrows('invoice_not_found');
    });

    it('the same payment id twice records nothing more (a request resumed under its Idempotency-Key)', () =>
      given([recorded()]).when(record()).thenNothingHappened());

    it('a second payment, and overpayment, are accepted: the amount due goes negative and a refund is due', () =>
      given([recorded()]).when(record({ payment_id: 'p2', amount: '500.00' })).then([recorded({ payment_id: 'p2', amount: '500.00' })]));

    it('the amount is a positive decimal with at most two places, at most an invoice total: else 422 on amount', () => {
      for (const amount of ['0', '0.00', '-5', '10.001', '1e3', 'abc', '', '1000000000000.00']) {
        given([]).when(record({ amount })).thenThrows(InvalidFields, onAmount);
      }
      given([]).when(record({ amount: '0.01' })).then([recorded({ amount: '0.01' })]);
      given([]).when(record({ amount: '999999999999.99' })).then([recorded({ amount: '999999999999.99' })]);
    });

    it('a blank reference is refused (omit it); none is null', () => {
      given([]).when(record({ reference: '  ' })).thenThrows(InvalidFields, (e) => expect(e.problems[0]?.loc).to.deep.equal(['body', 'reference']));
      given([]).when(record({ reference: null })).then([recorded({ reference: null })]);
    });

    it('another currency than the document\'s: 422 currency_mismatch', () =>
      given([]).when(record({ currency_code: 'CZK' })).thenThrows('currency_mismatch', { currency_code: 'CZK', document_currency_code: 'EUR' }));

    it('an invoice not issued yet is not payable: 409 not_payable', () => {
      for (const status of ['draft', 'validated', 'approved', 'pending_approval'] as const) {
        const error = given([]).when(record({ document: documentIn(status) })).thenThrows('not_payable', { status });
        expect(error.message).to.match(/not issued yet/);
      }
    });

    it('a cancelled or voided invoice is not payable: 409 not_payable', () => {
      for (const status of ['cancelled', 'voided'] as const) given([]).when(record({ document: documentIn(status) })).thenThrows('not_payable', { status });
    });

    it('an invoice is payable from queued on, and also when its delivery failed or was rejected', () => {
      for (const status of ['queued', 'sent_peppol', 'delivered', 'sent_fs', 'fs_acknowledged', 'failed', 'rejected'] as const) {
        given([]).when(record({ document: documentIn(status) })).then([recorded()]);
      }
    });

    it('a received invoice is payable: what we pay our supplier', () =>
      given([]).when(record({ document: documentIn('delivered', { source: 'peppol' }) })).then([recorded()]));

    it('a proforma is never payable: 409 not_payable', () => {
      const error = given([]).when(record({ document: documentIn('delivered', { invoice_type: '325' }) })).thenThrows('not_payable', { invoice_type: '325' });
      expect(error.message).to.match(/proforma/);
    });
  });

  describe('refunds on a credit note (spec rule 12: a payment recorded on the credit note)', () => {
    it('money recorded on an issued credit note is a refund', () => {
      for (const status of ['sent_peppol', 'delivered', 'sent_fs', 'fs_acknowledged'] as const) {
        given([]).when(record({ document: creditNote(status) })).then([recorded({ kind: 'refund' })]);
      }
    });

    it('a refund waits until the credit note is issued: 409 not_payable saying so', () => {
      for (const status of ['draft', 'pending_approval', 'queued', 'failed', 'rejected', 'voided'] as const) {
        const error = given([]).when(record({ document: creditNote(status) })).thenThrows('not_payable', { status, invoice_type: '381' });
        expect(error.message).to.match(/once it is issued/);
      }
    });

    it('a received credit note takes refunds: what our supplier pays us back', () =>
      given([]).when(record({ document: documentIn('delivered', { invoice_type: '381', source: 'peppol' }) })).then([recorded({ kind: 'refund' })]));

    it('a refund in another currency is 422 currency_mismatch', () =>
      given([]).when(record({ document: creditNote('delivered'), currency_code: 'USD' })).thenThrows('currency_mismatch'));
  });

  describe('a refund is at most what its credit note has left to refund (its settlement\'s refund_remaining)', () => {
    it('the finding: 999999999999.99 on a 10.00 credit note of a paid invoice is 422 refund_exceeds_remaining on amount, with the 10.00 left', () => {
      const error = given([]).when(refund('999999999999.99', invoiceI1('100.00', { id: 'cn1', gross: '10.00' })))
        .thenThrows(...beyondRemaining('10.00', '999999999999.99'));
      expect(error.message).to.match(/DOB-2026-1 has left to refund \(10\.00 EUR\)/);
    });

    it('exactly what is left is refunded; a cent more is refused', () => {
      const paidInFull = invoiceI1('100.00', { id: 'cn1', gross: '10.00' });
      given([]).when(refund('10.00', paidInFull)).then([refunded('10.00', 'r2')]);
      given([]).when(refund('10.01', paidInFull)).thenThrows(...beyondRemaining('10.00', '10.01'));
    });

    it('the refunds already on the credit note count from its own stream, as read: a second refund is decided on what the first left', () => {
      // the facts read beside it may not show r1 yet: the stream the refund is appended to does
      const paidInFull = invoiceI1('100.00', { id: 'cn1', gross: '10.00' });
      given([refunded('8.00')]).when(refund('8.00', paidInFull)).thenThrows(...beyondRemaining('2.00', '8.00'));
      given([refunded('8.00')]).when(refund('2', paidInFull)).then([refunded('2.00', 'r2')]);
    });

    it('a reversed refund no longer counts', () =>
      given([refunded('10.00'), { ...reversed, data: { ...reversed.data, payment_id: 'r1' } }])
        .when(refund('10.00', invoiceI1('100.00', { id: 'cn1', gross: '10.00' }))).then([refunded('10.00', 'r2')]));

    it('on an unpaid invoice the credit only lowers what the buyer owes: nothing to refund (record the invoice\'s payment first)', () => {
      given([]).when(refund('0.01', invoiceI1('0.00', { id: 'cn1', gross: '10.00' }))).thenThrows(...beyondRemaining('0.00', '0.01'));
    });

    it('on an invoice paid in part, only what was paid beyond what it now owes: paid 95 of 100, credited 10 → 5.00', () => {
      given([]).when(refund('5.01', invoiceI1('95.00', { id: 'cn1', gross: '10.00' }))).thenThrows(...beyondRemaining('5.00', '5.01'));
    });

    it('credit notes of one invoice share what it has due, oldest first: paid 60, credited 30 (cn0) and 50 (cn1) → cn1 has 10.00', () => {
      given([]).when(refund('10.01', invoiceI1('60.00', { id: 'cn0', gross: '30.00' }, { id: 'cn1', gross: '50.00' }))).thenThrows(...beyondRemaining('10.00', '10.01'));
      // cn0's refunds within its share leave cn1's as it was
      given([]).when(refund('10.01', invoiceI1('60.00', { id: 'cn0', gross: '30.00', refunded: '30.00' }, { id: 'cn1', gross: '50.00' }))).thenThrows(...beyondRemaining('10.00', '10.01'));
    });

    it('the credit note counts as issued from its own status, before its entry on the invoice learns it', () =>
      given([]).when(refund('10.00', invoiceI1('100.00', { id: 'cn1', gross: '10.00', issued: false })))
        .then([refunded('10.00', 'r2')]));

    it('a credit note whose invoice the service does not hold (or does not list it) has nothing left to refund', () => {
      given([]).when(refund('0.01', null)).thenThrows(...beyondRemaining('0.00', '0.01'));
      given([]).when(refund('0.01', invoiceI1('100.00', { id: 'cn9', gross: '10.00' }))).thenThrows(...beyondRemaining('0.00', '0.01'));
    });

    it('a credit note naming no invoice here (a 381 written as an invoice, or received) refunds its gross less its refunds', () => {
      const standalone = creditNote('delivered');
      given([]).when(record({ document: standalone, amount: '123.01' })).thenThrows(...beyondRemaining('123.00', '123.01'));
      given([recorded({ kind: 'refund', amount: '100.00' })]).when(record({ payment_id: 'p2', document: standalone, amount: '23.01' }))
        .thenThrows(...beyondRemaining('23.00', '23.01'));
      given([recorded({ kind: 'refund', amount: '100.00' })]).when(record({ payment_id: 'p2', document: standalone, amount: '23.00' }))
        .then([recorded({ payment_id: 'p2', kind: 'refund', amount: '23.00' })]);
    });

    it('the same refund again (resumed under its Idempotency-Key) records nothing, even once nothing is left', () =>
      given([refunded('10.00', 'r2')]).when(refund('10.00', invoiceI1('100.00', { id: 'cn1', gross: '10.00' }))).thenNothingHappened());
  });

  describe('the payments on one invoice add up to at most the largest amount an invoice carries', () => {
    it('past 999999999999.99 in all: 422 on amount; up to it, accepted; reversed ones do not count', () => {
      const nearlyAll = recorded({ amount: '999999999999.00' });
      given([nearlyAll]).when(record({ payment_id: 'p2', amount: '1.00' })).thenThrows(InvalidFields, onAmount);
      given([nearlyAll]).when(record({ payment_id: 'p2', amount: '0.99' })).then([recorded({ payment_id: 'p2', amount: '0.99' })]);
      given([nearlyAll, reversed]).when(record({ payment_id: 'p2', amount: '999999999999.99' })).then([recorded({ payment_id: 'p2', amount: '999999999999.99' })]);
    });
  });

  describe('reversing', () => {
    it('a recorded payment is reversed with its reason', () =>
      given([recorded()]).when(reverse()).then([reversed]));

    it('reversing again changes nothing: the first reversal stands', () =>
      given([recorded(), reversed]).when(reverse({ reason: 'another reason' })).thenNothingHappened());

    it('an unknown payment, or one of another organisation or company, is 404 payment_not_found', () => {
      given([]).when(reverse()).thenThrows('payment_not_found');
      given([recorded()]).when(reverse({ payment_id: 'p9' })).thenThrows('payment_not_found');
      given([recorded()]).when(reverse({ scope: otherOrganisation })).thenThrows('payment_not_found');
      given([recorded()]).when(reverse({ scope: otherCompany })).thenThrows('payment_not_found');
      given([recorded()]).when(reverse({ scope })).then([reversed]);
    });

    it('a blank reason is refused', () =>
      given([recorded()]).when(reverse({ reason: ' ' })).thenThrows(InvalidFields, (e) => expect(e.problems[0]?.loc).to.deep.equal(['body', 'reason'])));

    it('the state shows each payment as recorded or reversed', () => {
      const state = fold(paymentDecider, [recorded(), recorded({ payment_id: 'p2' }), reversed]);
      expect(state.payments.map((p) => [p.payment_id, p.status, p.reversal_reason])).to.deep.equal([['p1', 'reversed', 'bank returned it'], ['p2', 'recorded', null]]);
    });
  });
});
