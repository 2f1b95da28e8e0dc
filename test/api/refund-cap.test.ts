import { expect } from 'chai';
import { paymentsStream } from '../../events/payments.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Settlement = { credited_invoice_id: string | null; gross: string; refunded: string; refund_remaining: string; amount_due: string };
type Read = { id: string; version: number; invoice_number: string; amount_due: string; credited_amount: string; payment_status: string | null; settlement: Settlement | null };

const MAX = '999999999999.99';
const beyondBound = (amount: string) => Number(amount.replace('-', '')) > Number(MAX);

describe('refunds over HTTP: at most what the credit note has left to refund, and every amount read within ±999999999999.99 (issue 37 item 2)', function () {
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
  const pay = (documentId: string, amount: string) =>
    svc.call('POST', '/payments', { document_id: documentId, amount, currency_code: 'EUR', paid_on: today, method: 'bank_transfer' });
  /** 123.00 EUR, finished by hand (its credit notes are issued at once), and paid `paid` */
  async function invoice(paid: string | null): Promise<Read> {
    const created = await svc.call('POST', `/companies/${company}/invoices`, {
      issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer, lines: [{ item_name: 'Servis', quantity: '1', unit_price: '100.00', vat_rate: '23' }],
    });
    expect((await svc.call('POST', `/companies/${company}/invoices/${created.body.id}/mark-sent`, {})).status).to.equal(200);
    if (paid) expect((await pay(created.body.id, paid)).status).to.equal(201);
    return read(created.body.id);
  }
  /** a partial credit of `gross` on the invoice, issued at once */
  async function credit(invoiceId: string, gross: string): Promise<Read> {
    const answer = await svc.call('POST', `/companies/${company}/invoices/${invoiceId}/credit-notes`,
      { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross }] }, { 'if-match': `"${(await read(invoiceId)).version}"` });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    return answer.body as Read;
  }
  const refusedBeyond = (answer: { status: number; body: { detail: Record<string, unknown> } }, amount: string, refundRemaining: string) => {
    expect(answer.status, JSON.stringify(answer.body)).to.equal(422);
    expect(answer.body.detail).to.deep.include({ error: 'refund_exceeds_remaining', loc: ['body', 'amount'], amount, refund_remaining: refundRemaining, currency_code: 'EUR' });
  };

  it('the finding: 999999999999.99, then 5000.00, on a 10.00 credit note are 422 refund_exceeds_remaining with the 10.00 left; the reads stay as they were', async () => {
    const paid = await invoice('123.00');
    const creditNote = await credit(paid.id, '10.00');
    expect(creditNote.settlement).to.deep.include({ refund_remaining: '10.00', amount_due: '-10.00' });

    refusedBeyond(await pay(creditNote.id, MAX), MAX, '10.00');
    refusedBeyond(await pay(creditNote.id, '5000.00'), '5000.00', '10.00');
    expect((await read(creditNote.id)).settlement).to.deep.include({ refunded: '0.00', refund_remaining: '10.00', amount_due: '-10.00' });
    expect(await read(paid.id)).to.deep.include({ amount_due: '-10.00', payment_status: 'refund_due' });

    const refund = await pay(creditNote.id, '10.00');
    expect([refund.status, refund.body.kind]).to.deep.equal([201, 'refund']);
    expect((await read(creditNote.id)).settlement).to.deep.include({ refunded: '10.00', refund_remaining: '0.00', amount_due: '0.00' });
    expect(await read(paid.id)).to.deep.include({ amount_due: '0.00', payment_status: 'paid' });
    refusedBeyond(await pay(creditNote.id, '0.01'), '0.01', '0.00');
  });

  it('two refunds sent at once that together exceed what is left: exactly one is recorded, the other is 422 with what the first left', async () => {
    const paid = await invoice('123.00');
    const creditNote = await credit(paid.id, '10.00');
    const answers = await Promise.all([pay(creditNote.id, '6.00'), pay(creditNote.id, '6.00')]);
    expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 422]);
    refusedBeyond(answers.find((a) => a.status === 422)!, '6.00', '4.00');
    expect((await svc.call('GET', `/companies/${company}/invoices/${creditNote.id}/payments`)).body.total).to.equal(1);
    expect((await read(creditNote.id)).settlement).to.deep.include({ refunded: '6.00', refund_remaining: '4.00', amount_due: '-4.00' });
    expect(await read(paid.id)).to.deep.include({ amount_due: '-4.00', payment_status: 'refund_due' });
  });

  it('five refunds of 3.00 at once on a 10.00 credit note: three recorded, two refused with the 1.00 left (a lost race is decided again, never a 409)', async () => {
    const paid = await invoice('123.00');
    const creditNote = await credit(paid.id, '10.00');
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => pay(creditNote.id, '3.00')));
    expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 201, 201, 422, 422]);
    for (const refused of answers.filter((a) => a.status === 422)) refusedBeyond(refused, '3.00', '1.00');
    expect((await read(creditNote.id)).settlement).to.deep.include({ refunded: '9.00', refund_remaining: '1.00' });
  });

  it('on an unpaid invoice the credit only lowers what is owed: nothing to refund until the payment is recorded', async () => {
    const unpaid = await invoice(null);
    const creditNote = await credit(unpaid.id, '10.00');
    refusedBeyond(await pay(creditNote.id, '10.00'), '10.00', '0.00');
    const refused = await pay(creditNote.id, '0.01');
    expect(refused.body.detail.message).to.match(/no more than its invoice was paid beyond what it now owes/);
    expect((await pay(unpaid.id, '113.00')).status).to.equal(201);
    expect((await read(creditNote.id)).settlement).to.deep.include({ refund_remaining: '0.00' });
    expect((await pay(unpaid.id, '10.00')).status).to.equal(201);
    expect((await pay(creditNote.id, '10.00')).status).to.equal(201);
  });

  it('a store holding refunds and payments from before the caps still reads, every amount at most the bound', async () => {
    const paid = await invoice('123.00');
    const creditNote = await credit(paid.id, '10.00');
    const before = await read(creditNote.id);
    const company_id = company;
    const old = (documentId: string, kind: 'payment' | 'refund') => ({
      id: crypto.randomUUID(), type: 'PaymentRecorded', metadata: {},
      data: {
        payment_id: crypto.randomUUID(), document_id: documentId, organisation_id: svc.demo.organisation_id, company_id, kind, amount: MAX,
        currency_code: 'EUR', paid_on: today, method: 'bank_transfer', reference: null, recorded_by: 'old-version', recorded_at: new Date().toISOString(),
      },
    });
    // as the write side accepted them before the caps: refunds of 999999999999.99 twice on a 10.00 credit note (owed: 2 × that − 10.00)
    let { position } = await svc.services.store.append(paymentsStream(creditNote.id), [old(creditNote.id, 'refund'), old(creditNote.id, 'refund')], 'any');
    expect(await svc.services.projections.caughtUp(position, 60_000)).to.equal(true);
    const owedAgain = await read(paid.id);
    expect(owedAgain).to.deep.include({ amount_due: MAX, payment_status: 'partially_paid' });
    const refunded = await read(creditNote.id);
    expect(refunded.settlement).to.deep.include({ gross: before.settlement!.gross, refunded: MAX, refund_remaining: '0.00', amount_due: '0.00' });

    // and payments of 999999999999.99 four times over: overpaid by about twice the bound, shown at −999999999999.99, refund_due
    ({ position } = await svc.services.store.append(paymentsStream(paid.id), [1, 2, 3, 4].map(() => old(paid.id, 'payment')), 'any'));
    expect(await svc.services.projections.caughtUp(position, 60_000)).to.equal(true);
    const overpaid = await read(paid.id);
    expect(overpaid).to.deep.include({ amount_due: `-${MAX}`, payment_status: 'refund_due' });
    const shown = [overpaid.amount_due, overpaid.credited_amount, refunded.settlement!.refunded, refunded.settlement!.refund_remaining, refunded.settlement!.amount_due];
    for (const amount of shown) expect(beyondBound(amount), amount).to.equal(false);
    // a new payment on top of them is refused, not added past the bound
    const more = await pay(paid.id, '1.00');
    expect([more.status, more.body.detail[0].loc]).to.deep.equal([422, ['body', 'amount']]);
  });

  it('documents the cap in /openapi.json', async () => {
    const doc = await (await fetch(`${svc.root}/openapi.json`)).json();
    const record = doc.paths['/payments'].post;
    expect(record.description).to.contain('refund_exceeds_remaining');
    expect(record.responses['422'].description).to.contain('refund_remaining');
  });
});
