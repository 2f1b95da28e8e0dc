import { expect } from 'chai';
import { recordPayment } from '../../src/modules/payments/payments.ts';
import { withResourceSeed } from '../../src/platform/ports/ids.ts';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Payment = {
  id: string; document_id: string; company_id: string; kind: string; amount: string; currency_code: string; paid_on: string; method: string;
  reference: string | null; status: string; recorded_by: string; recorded_at: string; reversed_at: string | null; reversal_reason: string | null;
};

describe('payments over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;
  let company: string;
  let other: string;
  let customer: string;
  const year = String(new Date().getUTCFullYear());
  const today = new Date().toISOString().slice(0, 10);

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    other = svc.demo.companies[1]!.id;
    customer = (await svc.call('POST', `/companies/${company}/customers`, { name: 'Platiteľ s.r.o.', vat_id: 'SK2020000004', city: 'Košice' })).body.id;
  });
  after(async () => svc?.close());

  /** an invoice of 246.00 EUR, left as a draft or delivered by hand (mark-sent) */
  async function invoice(delivered = true): Promise<string> {
    const created = await svc.call('POST', `/companies/${company}/invoices`, {
      issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer,
      lines: [{ item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23' }],
    });
    expect(created.status).to.equal(201);
    if (delivered) expect((await svc.call('POST', `/companies/${company}/invoices/${created.body.id}/mark-sent`, { note: 'e-mailom' })).status).to.equal(200);
    return created.body.id as string;
  }
  const pay = (documentId: string, changes: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    svc.call('POST', '/payments', { document_id: documentId, amount: '100', currency_code: 'EUR', paid_on: today, method: 'bank_transfer', reference: 'VS 1', ...changes }, headers);
  const listOf = (companyId: string, invoiceId: string, query = '') => svc.call('GET', `/companies/${companyId}/invoices/${invoiceId}/payments${query}`);

  it('records a payment on a delivered invoice: 201, Location, and a GET at once sees it', async () => {
    const id = await invoice();
    const paid = await pay(id);
    expect(paid.status).to.equal(201);
    const payment = paid.body as Payment;
    expect(payment).to.include({
      document_id: id, company_id: company, kind: 'payment', amount: '100.00', currency_code: 'EUR', paid_on: today, method: 'bank_transfer',
      reference: 'VS 1', status: 'recorded', reversed_at: null, reversal_reason: null,
    });
    expect(paid.headers.get('location')).to.equal(`/api/v1/payments/${payment.id}`);
    const read = await svc.call('GET', `/payments/${payment.id}`);
    expect([read.status, read.body]).to.deep.equal([200, payment]);
    const list = await listOf(company, id);
    expect(list.body).to.deep.equal({ items: [payment], total: 1, page: 1, page_size: 20 });
  });

  it('an Idempotency-Key replay answers the same payment and records nothing more', async () => {
    const id = await invoice();
    const key = { 'idempotency-key': `pay-${id}` };
    const first = await pay(id, {}, key);
    const again = await pay(id, {}, key);
    expect(first.status).to.equal(201);
    expect([again.status, again.body]).to.deep.equal([201, first.body]);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect((await listOf(company, id)).body.total).to.equal(1);
    const reused = await pay(id, { amount: '5.00' }, key);
    expect([reused.status, reused.body.detail.error]).to.deep.equal([422, 'idempotency_key_reused']);
  });

  it('a request resumed under its Idempotency-Key names the same payment (its first minted id) and records it once', async () => {
    const id = await invoice();
    const actor = { type: 'api_key' as const, id: 'resumed-key', organisationId: svc.demo.organisation_id, role: 'admin' as const };
    const input = { document_id: id, amount: '12.00', currency_code: 'EUR', paid_on: today, method: 'card' as const, reference: null };
    const run = () => withResourceSeed(`seed-${id}`, () => recordPayment(svc.services, { actor, requestId: 'r1', input }));
    const first = await run();
    const resumed = await run();
    expect(resumed.payment).to.deep.equal(first.payment);
    expect([first.position === null, resumed.position]).to.deep.equal([false, null]);
    expect((await svc.services.store.readStream(`payments-${id}`)).map((e) => e.type)).to.deep.equal(['PaymentRecorded']);
  });

  it('another currency than the invoice\'s is 422 currency_mismatch', async () => {
    const answer = await pay(await invoice(), { currency_code: 'CZK' });
    expect(answer.status).to.equal(422);
    expect(answer.body.detail).to.include({ error: 'currency_mismatch', currency_code: 'CZK', document_currency_code: 'EUR' });
  });

  it('a draft is not payable: 409 not_payable', async () => {
    const answer = await pay(await invoice(false));
    expect(answer.status).to.equal(409);
    expect(answer.body.detail).to.include({ error: 'not_payable', status: 'draft' });
    expect(answer.body.detail.message).to.match(/not issued yet/);
  });

  it('an amount of 0, below a cent or with more than two decimals is 422 in the request-body shape', async () => {
    const id = await invoice();
    for (const amount of ['0', '0.00', '10.001', '-5', '1e3']) {
      const answer = await pay(id, { amount });
      expect(answer.status, amount).to.equal(422);
      expect(answer.body.detail[0].loc, amount).to.deep.equal(['body', 'amount']);
    }
    const unknownMethod = await pay(id, { method: 'cheque' });
    expect([unknownMethod.status, unknownMethod.body.detail[0].loc]).to.deep.equal([422, ['body', 'method']]);
  });

  it('overpayment is accepted', async () => {
    const id = await invoice();
    expect((await pay(id, { amount: '246.00' })).status).to.equal(201);
    expect((await pay(id, { amount: '10.00' })).status).to.equal(201);
  });

  it('a reversal marks the payment reversed with its reason; reversing again changes nothing', async () => {
    const id = await invoice();
    const payment = (await pay(id)).body as Payment;
    const reversed = await svc.call('POST', `/payments/${payment.id}/reverse`, { reason: 'banka platbu vrátila' });
    expect(reversed.status).to.equal(200);
    expect(reversed.body).to.include({ id: payment.id, status: 'reversed', reversal_reason: 'banka platbu vrátila' });
    expect(reversed.body.reversed_at).to.be.a('string');
    const again = await svc.call('POST', `/payments/${payment.id}/reverse`, { reason: 'iný dôvod' });
    expect([again.status, again.body]).to.deep.equal([200, reversed.body]);
    expect((await svc.call('GET', `/payments/${payment.id}`)).body).to.deep.equal(reversed.body);
    const blank = await svc.call('POST', `/payments/${payment.id}/reverse`, { reason: '' });
    expect(blank.status).to.equal(422);
    const unknown = await svc.call('POST', '/payments/00000000-0000-4000-8000-000000000000/reverse', { reason: 'x' });
    expect([unknown.status, unknown.body.detail.error]).to.deep.equal([404, 'payment_not_found']);
  });

  it('the list is newest first, reversed ones included, in pages', async () => {
    const id = await invoice();
    const first = (await pay(id, { amount: '10.00' })).body as Payment;
    const second = (await pay(id, { amount: '20.00', reference: undefined })).body as Payment;
    await svc.call('POST', `/payments/${first.id}/reverse`, { reason: 'omyl' });
    const list = await listOf(company, id);
    expect(list.body.total).to.equal(2);
    expect(list.body.items.map((p: Payment) => [p.id, p.amount, p.status, p.reference])).to.deep.equal([
      [second.id, '20.00', 'recorded', null], [first.id, '10.00', 'reversed', 'VS 1'],
    ]);
    const page2 = await listOf(company, id, '?page=2&page_size=1');
    expect(page2.body).to.deep.include({ total: 2, page: 2, page_size: 1 });
    expect(page2.body.items.map((p: Payment) => p.id)).to.deep.equal([first.id]);
    const empty = await listOf(company, await invoice());
    expect(empty.body).to.deep.equal({ items: [], total: 0, page: 1, page_size: 20 });
  });

  it('another organisation\'s invoice and payments are 404; another company\'s list is 404 invoice_not_found', async () => {
    const id = await invoice();
    const payment = (await pay(id)).body as Payment;
    const stranger = await createTestOrganisation(svc.services, 'Team Business');
    const as = { 'x-api-key': stranger.apiKey };
    const theirPay = await svc.call('POST', '/payments', { document_id: id, amount: '1.00', currency_code: 'EUR', paid_on: today, method: 'cash' }, as);
    expect([theirPay.status, theirPay.body.detail.error]).to.deep.equal([404, 'invoice_not_found']);
    const nobodys = await pay('00000000-0000-4000-8000-000000000000');
    expect([nobodys.status, nobodys.body.detail.error]).to.deep.equal([404, 'invoice_not_found']);
    const theirRead = await svc.call('GET', `/payments/${payment.id}`, undefined, as);
    expect([theirRead.status, theirRead.body.detail.error]).to.deep.equal([404, 'payment_not_found']);
    const theirReverse = await svc.call('POST', `/payments/${payment.id}/reverse`, { reason: 'x' }, as);
    expect([theirReverse.status, theirReverse.body.detail.error]).to.deep.equal([404, 'payment_not_found']);
    const theirList = await svc.call('GET', `/companies/${stranger.companyId}/invoices/${id}/payments`, undefined, as);
    expect([theirList.status, theirList.body.detail.error]).to.deep.equal([404, 'invoice_not_found']);
    const otherCompany = await listOf(other, id);
    expect([otherCompany.status, otherCompany.body.detail.error]).to.deep.equal([404, 'invoice_not_found']);
    expect((await svc.call('GET', '/payments/' + payment.id)).status).to.equal(200);
  });

  it('an approver reads payments but does not record them (403 insufficient_role); an accountant does', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business', ['approver', 'accountant']);
    const token = async (role: 'approver' | 'accountant') => {
      const login = await fetch(`${svc.api}/auth/login`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: org.users[role]!.email, password: org.users[role]!.password }),
      });
      return { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
    };
    const as = async (role: 'approver' | 'accountant', method: string, path: string, body?: unknown) => {
      const response = await fetch(`${svc.api}${path}`, {
        method, headers: { ...(await token(role)), 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      return [response.status, ((await response.json()) as { detail: { error: string } }).detail.error];
    };
    const body = { document_id: '00000000-0000-4000-8000-000000000000', amount: '1.00', currency_code: 'EUR', paid_on: today, method: 'cash' };
    expect(await as('approver', 'POST', '/payments', body)).to.deep.equal([403, 'insufficient_role']);
    expect(await as('accountant', 'POST', '/payments', body)).to.deep.equal([404, 'invoice_not_found']);
    expect(await as('approver', 'GET', '/payments/00000000-0000-4000-8000-000000000000')).to.deep.equal([404, 'payment_not_found']);
  });

  it('documents the payment routes and their rules in /openapi.json', async () => {
    const doc = await (await fetch(`${svc.root}/openapi.json`)).json();
    for (const path of ['/payments', '/payments/{payment_id}', '/payments/{payment_id}/reverse', '/companies/{company_id}/invoices/{invoice_id}/payments']) {
      expect(doc.paths, path).to.have.property(path);
    }
    const record = doc.paths['/payments'].post;
    expect(record.responses).to.include.keys('201', '404', '409', '422');
    for (const rule of ['not_payable', 'currency_mismatch', 'refund_due', 'Overpayment is accepted', 'refund_remaining']) expect(record.description).to.contain(rule);
  });
});
