import { expect } from 'chai';
import { computeTotals } from '../invoices/totals.ts';
import type { InvoiceContent } from '../invoices/model.ts';
import { invoiceContent } from '../../test/pdf/samples.ts';
import { paymentRequest, variableSymbolOf } from './pay-by-square.ts';

const documentOf = (over: Partial<InvoiceContent> = {}, status = 'delivered') => {
  const content = invoiceContent(2, over);
  return { status, content, totals: computeTotals(content) };
};

describe('PAY by square: what the code pays', () => {
  it('the amount due, currency, IBAN and BIC, variable symbol, due date and payee of the document', () => {
    const doc = documentOf();
    const decided = paymentRequest(doc);
    expect(decided.ok).to.equal(true);
    if (!decided.ok) return;
    expect(decided.payment).to.deep.include({
      amount: doc.totals.amount_due, currency: 'EUR', iban: 'SK3112000000198742637541', bic: 'SUBASKBX', variable_symbol: '2026000042', due_date: '2026-03-19',
    });
    expect(decided.payment.payee).to.deep.equal({ name: doc.content.supplier.name, street: 'Štúrova 27', city: '811 02 Bratislava – Staré Mesto' });
  });

  it('the variable symbol is the document\'s, else the number\'s digits (the last 10), else none', () => {
    expect(variableSymbolOf({ variable_symbol: '42', invoice_number: 'FA-2026-7' })).to.equal('42');
    expect(variableSymbolOf({ variable_symbol: null, invoice_number: 'FA-2026-0007' })).to.equal('20260007');
    expect(variableSymbolOf({ variable_symbol: 'ABC', invoice_number: '2026-000000123' })).to.equal('6000000123');
    expect(variableSymbolOf({ variable_symbol: null, invoice_number: 'ABC' })).to.equal(null);
  });

  it('no code without an account: no IBAN, or paid by card', () => {
    expect(paymentRequest(documentOf({ supplier_iban: null }))).to.include({ ok: false, code: 'pay_by_square_no_account' });
    expect(paymentRequest(documentOf({ payment_means_code: '48' }))).to.include({ ok: false, code: 'pay_by_square_no_account' });
  });

  it('no code when nothing is due: a credit note, a voided invoice, an amount due of zero', () => {
    expect(paymentRequest(documentOf({ invoice_type: '381' }))).to.include({ ok: false, code: 'pay_by_square_nothing_due' });
    expect(paymentRequest(documentOf({}, 'voided'))).to.include({ ok: false, code: 'pay_by_square_nothing_due' });
    const free = invoiceContent(0, { lines: [{ ...invoiceContent(1).lines[0]!, unit_price: '0' }] });
    expect(paymentRequest({ status: 'delivered', content: free, totals: computeTotals(free) })).to.include({ ok: false, code: 'pay_by_square_nothing_due' });
  });
});
