import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';
import { withoutRequestId } from '../support/request-id.ts';

/**
 * One organisation, two companies, one key for both: what company A owns, company B's routes
 * neither change nor show. Each refusal is the resource's 404, the same answer as for an id that
 * does not exist (with the current version or a stale one), and nothing is written.
 */
describe('access through another company of the same organisation', function () {
  this.timeout(120_000);
  let svc: TestService;
  let owner: string;
  let other: string;
  let invoice: { id: string; version: number };
  let customer: { id: string; version: number };
  const unknown = '00000000-0000-4000-8000-000000000000';
  const year = String(new Date().getUTCFullYear());
  const draft = (customerId: string) => ({
    issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customerId,
    lines: [{ item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23' }],
  });

  before(async () => {
    svc = await startTestService();
    owner = svc.demo.companies[0]!.id;
    other = svc.demo.companies[1]!.id;
    customer = (await svc.call('POST', `/companies/${owner}/customers`, {
      name: 'Odberateľ len pre A s.r.o.', vat_id: 'SK2020000004', dic: '2020000004', city: 'Košice', postal_code: '04001', peppol_id: '9950:sk2020000004svctest',
    })).body;
    invoice = (await svc.call('POST', `/companies/${owner}/invoices`, draft(customer.id))).body;
    expect(invoice.version).to.equal(0);
  });
  after(async () => svc?.close());

  /** B's answer for A's resource, and for an id nobody has: both the same 404 with `code`. */
  async function refusedAsUnknown(code: string, method: string, path: (id: string) => string, body?: unknown, headers?: Record<string, string>) {
    const theirs = await svc.call(method, path(code === 'invoice_not_found' ? invoice.id : customer.id), body, headers);
    const nobodys = await svc.call(method, path(unknown), body, headers);
    expect(theirs.status, `${method} ${path(':id')}`).to.equal(404);
    expect(theirs.body.detail.error, `${method} ${path(':id')}`).to.equal(code);
    expect(withoutRequestId(theirs.body), `${method} ${path(':id')} tells A’s from nobody’s`).to.deep.equal(withoutRequestId(nobodys.body));
  }

  it('cannot read A’s invoice: GET, UBL, history, history as of a time', async () => {
    const at = (id: string) => `/companies/${other}/invoices/${id}`;
    await refusedAsUnknown('invoice_not_found', 'GET', at);
    for (const what of ['ubl', 'history', `history?as_of=${encodeURIComponent('2000-01-01T00:00:00Z')}`]) {
      await refusedAsUnknown('invoice_not_found', 'GET', (id) => `${at(id)}/${what}`);
    }
  });

  it('cannot change A’s invoice: replace, validate, send, mark-sent, with the current version or a stale one', async () => {
    const at = (id: string) => `/companies/${other}/invoices/${id}`;
    for (const version of [invoice.version, 7]) {
      const ifMatch = { 'if-match': `"${version}"` };
      await refusedAsUnknown('invoice_not_found', 'PUT', at, draft(customer.id), ifMatch); // A's customer: the invoice is refused first
      await refusedAsUnknown('invoice_not_found', 'POST', (id) => `${at(id)}/send`, undefined, ifMatch);
      await refusedAsUnknown('invoice_not_found', 'POST', (id) => `${at(id)}/mark-sent`, { note: 'by B' }, ifMatch);
    }
    await refusedAsUnknown('invoice_not_found', 'POST', (id) => `${at(id)}/validate`);
    await refusedAsUnknown('invoice_not_found', 'POST', (id) => `${at(id)}/send`);
    await refusedAsUnknown('invoice_not_found', 'POST', (id) => `${at(id)}/mark-sent`);
  });

  it('cannot read or archive A’s customer, with the current version or a stale one', async () => {
    const at = (id: string) => `/companies/${other}/customers/${id}`;
    await refusedAsUnknown('customer_not_found', 'GET', at);
    await refusedAsUnknown('customer_not_found', 'POST', (id) => `${at(id)}/archive`);
    for (const version of [customer.version, 7]) {
      await refusedAsUnknown('customer_not_found', 'POST', (id) => `${at(id)}/archive`, undefined, { 'if-match': `"${version}"` });
    }
  });

  it('wrote nothing: A still sees its invoice and customer as they were', async () => {
    const mine = await svc.call('GET', `/companies/${owner}/invoices/${invoice.id}`);
    expect(mine.body).to.include({ status: 'draft', version: 0 });
    const history = await svc.call('GET', `/companies/${owner}/invoices/${invoice.id}/history`);
    expect(history.body.events.map((e: { type: string }) => e.type)).to.deep.equal(['InvoiceCreated']);
    expect((await svc.call('GET', `/companies/${owner}/customers/${customer.id}`)).body).to.include({ is_active: true, version: 0 });
  });

  it('the organisation-wide routes and organisation-wide customers are every company’s', async () => {
    expect((await svc.call('GET', `/invoices/${invoice.id}`)).body).to.include({ id: invoice.id, company_id: owner });
    const shared = (await svc.call('POST', '/customers', { name: 'Spoločný s.r.o.', vat_id: '' })).body;
    expect((await svc.call('GET', `/companies/${other}/customers/${shared.id}`)).status).to.equal(200);
    const archived = await svc.call('POST', `/companies/${other}/customers/${shared.id}/archive`);
    expect(archived.status).to.equal(200);
    expect(archived.body).to.include({ is_active: false, version: 1 });
  });
});
