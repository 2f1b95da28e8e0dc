import { expect } from 'chai';
import { refundRemaining, settleCreditNotes, settleInvoice, settleStandaloneCreditNote, type CreditNoteFacts, type InvoiceFacts } from './settlement.ts';

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

    it('a refund larger than the credit (a store from before the refund cap may hold one) makes the buyer owe again', () =>
      expect(due(invoice('100.00', cn('cn1', '30.00', '50.00')))).to.deep.equal(['20.00', 'partially_paid']));

    it('cents add exactly, without float drift', () => {
      const facts: InvoiceFacts = { invoice_id: 'i1', total_gross: '0.30', paid: '0.10', credit_notes: [cn('cn1', '0.20')] };
      expect(due(facts)).to.deep.equal(['0.00', 'paid']);
    });
  });

  describe('every amount shown stays within ±999999999999.99, whatever the payments (a store may hold sums from before the caps)', () => {
    const MAX = '999999999999.99';

    it('an invoice paid five times the largest amount: paid and amount_due shown at the bound, still refund_due', () => {
      expect(settleInvoice(invoice('4999999999999.95'))).to.deep.include({ paid: MAX, amount_due: `-${MAX}`, payment_status: 'refund_due' });
    });

    it('the finding: 1000000004999.99 refunded on a 10.00 credit note of an unpaid 123.00 invoice reads at the bound, not 1000000005112.99', () => {
      const facts: InvoiceFacts = { invoice_id: 'i1', total_gross: '123.00', paid: '0.00', credit_notes: [cn('cn1', '10.00', '1000000004999.99')] };
      expect(settleInvoice(facts)).to.deep.include({ refunded: MAX, amount_due: MAX, payment_status: 'unpaid' });
      expect(settleCreditNotes(facts).get('cn1')).to.deep.include({ refunded: MAX, refund_remaining: '0.00', amount_due: '0.00' });
      expect(settleStandaloneCreditNote({ gross: '10.00', issued: true, refunded: '1000000004999.99' })).to.deep.include({ refunded: MAX, refund_remaining: '0.00' });
    });

    it('within the bound nothing is capped', () =>
      expect(settleInvoice({ invoice_id: 'i1', total_gross: MAX, paid: '0.00', credit_notes: [] })).to.deep.include({ amount_due: MAX, payment_status: 'unpaid' }));
  });

  describe('refundRemaining: the cap on a refund, each credit note\'s share of what the invoice has due', () => {
    it('is the settlement\'s refund_remaining, exactly', () => {
      const facts = invoice('60.00', cn('cn1', '30.00'), cn('cn2', '50.00'));
      expect(['cn1', 'cn2', 'cn9'].map((id) => refundRemaining(facts, id).toFixed(2))).to.deep.equal(['30.00', '10.00', '0.00']);
    });

    it('a refund within one credit note\'s share leaves every other share as it was (so racing refunds on two of them never exceed what is due)', () => {
      for (const paid of ['0.00', '20.00', '60.00', '100.00', '150.00']) {
        const before = invoice(paid, cn('cn1', '30.00'), cn('cn2', '50.00'), cn('cn3', '20.00'));
        for (const [i, c] of before.credit_notes.entries()) {
          const share = refundRemaining(before, c.credit_note_id);
          const after: InvoiceFacts = { ...before, credit_notes: before.credit_notes.map((o, j) => (j === i ? { ...o, refunded: share.toFixed(2) } : o)) };
          for (const other of before.credit_notes.filter((o) => o !== c)) {
            expect(refundRemaining(after, other.credit_note_id).toFixed(2), `paid ${paid}, ${c.credit_note_id} refunded`).to.equal(refundRemaining(before, other.credit_note_id).toFixed(2));
          }
        }
      }
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
