import { expect } from 'chai';
import { invoiceDecider } from '../../commands/invoices/decider.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Issue 15, item 2, and issue 41 (the rules were run twice): POST /invoices decides the create
 * once, with the real number, and the rules run there; a refused content takes no number
 * (numbering-refusals.test.ts), because nothing is appended when the decider refuses.
 */
describe('an invoice create decides once', function () {
  this.timeout(120_000);
  let svc: TestService;
  let company: string;
  let customerId: string;
  const decide = invoiceDecider.decide;
  let creates: string[] = [];
  const year = String(new Date().getUTCFullYear());
  const draft = (over: Record<string, unknown> = {}) => ({
    issue_date: `${year}-05-04`, due_date: `${year}-05-18`, customer_id: customerId,
    lines: [{ item_name: 'Servis', quantity: '1', unit_price: '10.00', vat_rate: '23' }], ...over,
  });

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    customerId = (await svc.call('POST', `/companies/${company}/customers`, { name: 'Odberateľ a.s.', vat_id: 'SK2020000004' })).body.id;
    invoiceDecider.decide = (command, state) => {
      if (command.type === 'CreateInvoice') creates.push(command.content.invoice_number);
      return decide(command, state);
    };
  });
  beforeEach(() => (creates = []));
  after(async () => {
    invoiceDecider.decide = decide;
    await svc?.close();
  });

  it('from the series: one decide, with the number the invoice gets', async () => {
    const created = await svc.call('POST', `/companies/${company}/invoices`, draft());
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(creates).to.deep.equal([created.body.invoice_number]);
  });

  it('with the client’s number: one decide', async () => {
    const created = await svc.call('POST', `/companies/${company}/invoices`, draft({ invoice_number: 'ONCE-1' }));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(creates).to.deep.equal(['ONCE-1']);
  });

  it('a refused content is decided once and takes no number: the next create gets it', async () => {
    const refused = await svc.call('POST', `/companies/${company}/invoices`, draft({ lines: [{ item_name: 'Servis', quantity: '1', unit_price: '10.00', vat_rate: '0' }] }));
    expect(refused.status).to.equal(422);
    expect(creates).to.have.length(1);
    const created = await svc.call('POST', `/companies/${company}/invoices`, draft());
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.invoice_number).to.equal(creates[0]);
  });
});
