import { expect } from 'chai';
import { usageMonth } from '../../commands/limits/usage.ts';
import { usageStream } from '../../events/usage.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Found by the crash-effects campaign (quota counter one above the sends acknowledged): a credit
 * note counts against the monthly quota before its append, and a request that then loses the race
 * at the append (412: the invoice moved since its If-Match) writes no credit note but leaves its
 * count. The client reloads and asks again: one credit note, counted twice.
 */
describe('credit notes racing at one invoice version: the quota counts only the one created', function () {
  this.timeout(240_000);
  let svc: TestService;

  before(async () => {
    svc = await startTestService({ runReactors: false });
  });
  after(async () => svc?.close());

  it('one 202, the others 412, and the credit notes counted once (each lost race takes its count back)', async () => {
    const seller = svc.demo.companies[0]!;
    const buyer = svc.demo.companies[1]!;
    const customer = (await svc.call('POST', `/companies/${seller.id}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id })).body.id;
    const invoice = (await svc.call('POST', `/companies/${seller.id}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer, lines: [{ item_name: 'Servis', quantity: '10', unit_price: '100.00', vat_rate: '23' }],
    })).body;
    expect((await svc.call('POST', `/companies/${seller.id}/invoices/${invoice.id}/send`)).status).to.equal(202);
    const version = (await svc.call('GET', `/companies/${seller.id}/invoices/${invoice.id}`)).body.version as number;
    // the month's running total, as the quota sees it (InvoiceCounted, less InvoiceCountReleased)
    const counted = async () => (await svc.services.store.readStream(usageStream(svc.demo.organisation_id, usageMonth(new Date())))).at(-1)?.data.count as number;
    const before = await counted();

    const answers = await Promise.all(Array.from({ length: 6 }, () => svc.call('POST', `/companies/${seller.id}/invoices/${invoice.id}/credit-notes`,
      { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '12.30' }] }, { 'if-match': String(version) })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 202), JSON.stringify(statuses)).to.have.length(1);
    expect(statuses.filter((s) => s !== 202).every((s) => s === 412), JSON.stringify(statuses)).to.equal(true);
    expect((await counted()) - before, 'credit notes counted').to.equal(1);
  });
});
