import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Issue 14, item 3: a refused create never consumes an invoice number. Every kind of refusal a
 * client can provoke is tried in turn; after each, the series still offers the same next number,
 * and the next accepted create gets exactly that number (no gap).
 */
describe('a refused invoice create consumes no number', function () {
  this.timeout(120_000);
  let svc: TestService;
  let company: string;
  let customerId: string;
  const year = String(new Date().getUTCFullYear());
  const invoices = () => `/companies/${company}/invoices`;
  const line = (over: Record<string, unknown> = {}) => ({ item_name: 'Servis', quantity: '1', unit_price: '10.00', vat_rate: '23', ...over });
  const draft = (over: Record<string, unknown> = {}) => ({ issue_date: `${year}-05-04`, due_date: `${year}-05-18`, customer_id: customerId, lines: [line()], ...over });
  const next = async () => (await svc.call('GET', `${invoices()}/numbering/next?year=${year}`)).body.invoice_number as string;

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    const customer = await svc.call('POST', `/companies/${company}/customers`, { name: 'Odberateľ a.s.', vat_id: 'SK2020000004', peppol_id: '9950:sk2020000004svctest' });
    customerId = customer.body.id;
    expect((await svc.call('POST', invoices(), draft({ invoice_number: 'TAKEN-1' }))).status).to.equal(201);
  });
  after(async () => svc?.close());

  const refusals: [string, () => Record<string, unknown>, number][] = [
    ['a body the schema refuses (no lines)', () => draft({ lines: [] }), 422],
    ['a business rule (rate 0 in category S)', () => draft({ lines: [line({ vat_rate: '0' })] }), 422],
    ['an amount beyond the service bounds', () => draft({ lines: [line({ quantity: '100000000', unit_price: '100000000' })] }), 422],
    ['NUL in an item name', () => draft({ lines: [line({ item_name: 'a\u0000b' })] }), 422],
    ['a lone surrogate in the note', () => draft({ note: 'x\ud800y' }), 422],
    ['a control character XML forbids', () => draft({ lines: [line({ item_name: 'bell\u0007' })] }), 422],
    ['a date no database can hold', () => draft({ issue_date: '0000-01-01' }), 422],
    ['an unknown customer', () => draft({ customer_id: '00000000-0000-4000-8000-000000000000' }), 404],
    ['a number the client already used', () => draft({ invoice_number: 'taken-1' }), 409],
  ];

  for (const [what, body, status] of refusals) {
    it(`${what}: ${status}, and the series still offers the same number`, async () => {
      const before = await next();
      const refused = await svc.call('POST', invoices(), body());
      expect(refused.status, JSON.stringify(refused.body)).to.equal(status);
      expect(refused.body.detail).to.exist;
      expect(await next()).to.equal(before);
    });
  }

  it('the next accepted create takes the number every refusal left alone', async () => {
    const expected = await next();
    const created = await svc.call('POST', invoices(), draft());
    expect(created.status).to.equal(201);
    expect(created.body.invoice_number).to.equal(expected);
  });
});
