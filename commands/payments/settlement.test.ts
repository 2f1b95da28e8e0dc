import { expect } from 'chai';
import { settleCreditNotes, settleInvoice, settleStandaloneCreditNote, type CreditNoteFacts, type InvoiceFacts } from './settlement.ts';

const invoice = (paid: string, ...credit_notes: CreditNoteFacts[]): InvoiceFacts => ({ invoice_id: 'i1', total_gross: '100.00', paid, credit_notes });
const cn = (id: string, gross: string, refunded = '0.00', issued = true): CreditNoteFacts => ({ credit_note_id: id, gross, issued, refunded });
const due = (facts: InvoiceFacts) => {
  const s = settleInvoice(facts);
  return [s.amount_due, s.payment_status];
};

describe('settlement: what is owed on an invoice after credit notes, payments and refunds', () => {
  describe('the invoice (amount_due = total_gross − credited_amount − paid + refunded)', () => {
    it('nothing paid: unpaid, the whole total due', () => expect(due(invoice('0.00'))).to.deep.equal(['100.00', 'unpaid']));

    it('paid in part: partially_paid', () => expect(due(invoice('40.00'))).to.deep.equal(['60.00', 'partially_paid']));

    it('paid in full: paid', () => expect(due(invoice('100.00'))).to.deep.equal(['0.00', 'paid']));

    it('overpaid: the amount due is negative and a refund is due', () => expect(due(invoice('120.00'))).to.deep.equal(['-20.00', 'refund_due']));

    it('paid 100, then credited 30: −30.00 refund_due', () => {
      expect(settleInvoice(invoice('100.00', cn('cn1', '30.00')))).to.deep.equal({
        credited_amount: '30.00', paid: '100.00', refunded: '0.00', amount_due: '-30.00', payment_status: 'refund_due',
      });
    });

    it('… and the 30 refunded on the credit note: 0.00 paid', () => {
      expect(settleInvoice(invoice('100.00', cn('cn1', '30.00', '30.00')))).to.deep.include({ refunded: '30.00', amount_due: '0.00', payment_status: 'paid' });
    });

    it('credited 30, then paid 70: 0.00 paid', () => expect(due(invoice('70.00', cn('cn1', '30.00')))).to.deep.equal(['0.00', 'paid']));

    it('credited 30, nothing paid: 70.00 unpaid', () => expect(due(invoice('0.00', cn('cn1', '30.00')))).to.deep.equal(['70.00', 'unpaid']));

    it('a full reversal of an unpaid invoice: 0.00 credited (nothing owed either way)', () => {
      expect(settleInvoice(invoice('0.00', cn('cn1', '100.00')))).to.deep.include({ credited_amount: '100.00', amount_due: '0.00', payment_status: 'credited' });
    });

    it('a full reversal of a paid invoice: −100.00 refund_due, then credited once refunded', () => {
      expect(due(invoice('100.00', cn('cn1', '100.00')))).to.deep.equal(['-100.00', 'refund_due']);
      expect(due(invoice('100.00', cn('cn1', '100.00', '100.00')))).to.deep.equal(['0.00', 'credited']);
    });

    it('credit notes in parts that add up to the whole: credited', () =>
      expect(due(invoice('0.00', cn('cn1', '60.00'), cn('cn2', '40.00')))).to.deep.equal(['0.00', 'credited']));

    it('a credit note not issued yet (queued, pending approval) credits nothing yet', () => {
      expect(settleInvoice(invoice('100.00', cn('cn1', '30.00', '0.00', false)))).to.deep.include({ credited_amount: '0.00', amount_due: '0.00', payment_status: 'paid' });
    });

    it('a refund larger than the credit (recorded as it happened) makes the buyer owe again', () =>
      expect(due(invoice('100.00', cn('cn1', '30.00', '50.00')))).to.deep.equal(['20.00', 'partially_paid']));

    it('cents add exactly, without float drift', () => {
      const facts: InvoiceFacts = { invoice_id: 'i1', total_gross: '0.30', paid: '0.10', credit_notes: [cn('cn1', '0.20')] };
      expect(due(facts)).to.deep.equal(['0.00', 'paid']);
    });
  });

  describe('a credit note\'s settlement', () => {
    it('paid 100, credited 30: the credit note has 30.00 to refund (amount_due −30.00)', () => {
      expect(settleCreditNotes(invoice('100.00', cn('cn1', '30.00'))).get('cn1')).to.deep.equal({
        credited_invoice_id: 'i1', gross: '30.00', refunded: '0.00', refund_remaining: '30.00', amount_due: '-30.00',
      });
    });

    it('once refunded, nothing remains', () =>
      expect(settleCreditNotes(invoice('100.00', cn('cn1', '30.00', '30.00'))).get('cn1')).to.deep.include({ refunded: '30.00', refund_remaining: '0.00', amount_due: '0.00' }));

    it('on an unpaid invoice the credit only lowers what the buyer owes: nothing to refund', () =>
      expect(settleCreditNotes(invoice('0.00', cn('cn1', '30.00'))).get('cn1')).to.deep.include({ refund_remaining: '0.00', amount_due: '0.00' }));

    it('on an invoice paid in part, only what was paid beyond what is now owed is refunded', () =>
      // owed after the credit: 40; paid 60 → 20 back
      expect(settleCreditNotes(invoice('60.00', cn('cn1', '60.00'))).get('cn1')).to.deep.include({ refund_remaining: '20.00', amount_due: '-20.00' }));

    it('the refund due is allotted to the credit notes oldest first, never more than each one credits', () => {
      const settled = settleCreditNotes(invoice('60.00', cn('cn1', '30.00'), cn('cn2', '50.00')));
      // owed 100 − 80 = 20, paid 60 → 40 back: 30 through cn1, 10 through cn2
      expect([...settled.values()].map((s) => s.refund_remaining)).to.deep.equal(['30.00', '10.00']);
    });

    it('a credit note not issued yet has amount_due and refund_remaining 0.00', () =>
      expect(settleCreditNotes(invoice('100.00', cn('cn1', '30.00', '0.00', false))).get('cn1')).to.deep.include({ refund_remaining: '0.00', amount_due: '0.00' }));

    it('a credit note naming no invoice here refunds its whole gross once issued', () => {
      expect(settleStandaloneCreditNote({ gross: '30.00', issued: true, refunded: '10.00' })).to.deep.equal({
        credited_invoice_id: null, gross: '30.00', refunded: '10.00', refund_remaining: '20.00', amount_due: '-20.00',
      });
      expect(settleStandaloneCreditNote({ gross: '30.00', issued: false, refunded: '0.00' })).to.deep.include({ refund_remaining: '0.00', amount_due: '0.00' });
    });
  });
});
