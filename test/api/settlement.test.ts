import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';

type Read = {
  id: string; status: string; version: number; amount_due: string; credited_amount: string; payment_status: string | null;
  credit_notes: { id: string; credit_note_number: string; reason: string; total_gross: string; state: string }[];
  settlement: { credited_invoice_id: string | null; gross: string; refunded: string; refund_remaining: string; amount_due: string } | null;
};

describe('invoice reads after credit notes and payments (amount_due, payment_status, settlement) over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;
  let company: string;
  let customer: string;
  const year = String(new Date().getUTCFullYear());
  const today = new Date().toISOString().slice(0, 10);

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    customer = (await svc.call('POST', `/companies/${company}/customers`, { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000004', city: 'Košice' })).body.id;
  });
  after(async () => svc?.close());

  const read = async (id: string) => (await svc.call('GET', `/companies/${company}/invoices/${id}`)).body as Read;
  /** 123.00 EUR, finished by hand: its credit notes are delivered (issued) at once */
  async function handedOver(): Promise<Read> {
    const created = await svc.call('POST', `/companies/${company}/invoices`, {
      issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer, lines: [{ item_name: 'Servis', quantity: '1', unit_price: '100.00', vat_rate: '23' }],
    });
    expect((await svc.call('POST', `/companies/${company}/invoices/${created.body.id}/mark-sent`, {})).status).to.equal(200);
    return read(created.body.id);
  }
  const pay = async (documentId: string, amount: string) => {
    const paid = await svc.call('POST', '/payments', { document_id: documentId, amount, currency_code: 'EUR', paid_on: today, method: 'bank_transfer' });
    return paid;
  };
  const credit = async (invoice: Read, gross: string) => {
    const answer = await svc.call('POST', `/companies/${company}/invoices/${invoice.id}/credit-notes`, { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross }] }, { 'if-match': `"${(await read(invoice.id)).version}"` });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    return answer.body as Read;
  };

  it('an invoice nothing touched: amount_due is what it asks, unpaid, no credit notes', async () => {
    const invoice = await handedOver();
    expect(invoice).to.deep.include({ amount_due: '123.00', credited_amount: '0.00', payment_status: 'unpaid', credit_notes: [], settlement: null });
  });

  it('paid, then credited: a refund is due (negative amount_due) through the credit note, and recording it settles both', async () => {
    const invoice = await handedOver();
    expect((await pay(invoice.id, '123.00')).status).to.equal(201);
    expect(await read(invoice.id)).to.deep.include({ amount_due: '0.00', payment_status: 'paid' });
    const creditNote = await credit(invoice, '24.60');
    expect(creditNote.settlement).to.deep.equal({ credited_invoice_id: invoice.id, gross: '24.60', refunded: '0.00', refund_remaining: '24.60', amount_due: '-24.60' });
    expect(creditNote).to.include({ amount_due: '-24.60', payment_status: null, credited_amount: '0.00' });
    expect(await read(creditNote.id), 'the create answers what a read shows').to.deep.equal(creditNote);
    const after = await read(invoice.id);
    expect(after).to.deep.include({ amount_due: '-24.60', credited_amount: '24.60', payment_status: 'refund_due' });
    expect(after.credit_notes).to.deep.equal([{ id: creditNote.id, credit_note_number: after.credit_notes[0]!.credit_note_number, reason: 'partial_credit', total_gross: '24.60', state: 'issued' }]);

    const refund = await pay(creditNote.id, '24.60');
    expect(refund.status, JSON.stringify(refund.body)).to.equal(201);
    expect(refund.body.kind).to.equal('refund');
    expect(await read(invoice.id)).to.deep.include({ amount_due: '0.00', payment_status: 'paid' });
    expect((await read(creditNote.id)).settlement).to.deep.include({ refunded: '24.60', refund_remaining: '0.00', amount_due: '0.00' });
  });

  it('credited, then paid: nothing to refund, the rest is paid', async () => {
    const invoice = await handedOver();
    const creditNote = await credit(invoice, '24.60');
    expect(creditNote.settlement).to.deep.include({ refund_remaining: '0.00', amount_due: '0.00' });
    expect(await read(invoice.id)).to.deep.include({ amount_due: '98.40', credited_amount: '24.60', payment_status: 'unpaid' });
    expect((await pay(invoice.id, '98.40')).status).to.equal(201);
    expect(await read(invoice.id)).to.deep.include({ amount_due: '0.00', payment_status: 'paid' });
  });

  it('a full reversal of an unpaid invoice: credited; a void draft is not issued, so it takes no refund and shows 0.00 due', async () => {
    const invoice = await handedOver();
    const draft = (await svc.call('POST', `/companies/${company}/invoices/${invoice.id}/void`)).body as Read;
    expect(draft).to.deep.include({ status: 'draft', amount_due: '0.00' });
    expect(draft.settlement).to.deep.include({ refund_remaining: '0.00', amount_due: '0.00' });
    const refused = await pay(draft.id, '1.00');
    expect(refused.status).to.equal(409);
    expect(refused.body.detail.error).to.equal('not_payable');
    expect((await read(invoice.id)).credit_notes.map((c) => c.state)).to.deep.equal(['waiting']);

    expect((await svc.call('POST', `/companies/${company}/invoices/${draft.id}/mark-sent`, {})).status).to.equal(200);
    const voided = await read(invoice.id);
    expect(voided).to.deep.include({ status: 'voided', amount_due: '0.00', credited_amount: '123.00', payment_status: 'credited' });
  });
});
