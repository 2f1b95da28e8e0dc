import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Rule 9: a resource of another organisation is 404 on every route. The walk goes over every
 * route the app registers, so a new route with a path parameter cannot forget it: a parameter
 * this test has no foreign resource for fails the test until one is added here.
 */
describe('cross-organisation access (every route)', function () {
  this.timeout(120_000);
  let svc: TestService;
  const foreign: Record<string, string> = {};

  before(async () => {
    svc = await startTestService();
    const other = svc.demo.second_organisation;
    const as = (method: string, path: string, body?: unknown) => svc.call(method, path, body, { 'x-api-key': other.api_key });
    foreign.company_id = other.company_id;
    const customer = await as('POST', `/companies/${other.company_id}/customers`, { name: 'Cudzí s.r.o.', vat_id: 'SK2020273893', ico: '35757442', city: 'Žilina' });
    expect(customer.status).to.equal(201);
    foreign.customer_id = customer.body.id;
    const invoice = await as('POST', `/companies/${other.company_id}/invoices`, {
      issue_date: '2026-11-23', due_date: '2026-12-07', customer_id: foreign.customer_id,
      lines: [{ item_name: 'Služba', quantity: '1', unit_code: 'C62', unit_price: '100.00', vat_rate: '23' }],
    });
    expect(invoice.status).to.equal(201);
    foreign.invoice_id = invoice.body.id;
    expect((await as('POST', `/companies/${other.company_id}/invoices/${foreign.invoice_id}/mark-sent`, {})).status).to.equal(200);
    const payment = await as('POST', '/payments', { document_id: foreign.invoice_id, amount: '1.00', currency_code: 'EUR', paid_on: '2026-11-24', method: 'bank_transfer' });
    expect(payment.status).to.equal(201);
    foreign.payment_id = payment.body.id;
    const key = await as('POST', '/api-keys', { name: 'their key' });
    expect(key.status).to.equal(201);
    foreign.key_id = key.body.id;
    const client = await as('POST', '/oauth2/clients', { name: 'their client' });
    expect(client.status).to.equal(201);
    foreign.client_id = client.body.client_id;
    const sapiClient = await as('POST', `/companies/${other.company_id}/sapi-clients`);
    expect(sapiClient.status).to.equal(201);
    foreign.sapi_client_id = sapiClient.body.client_id;
    const hook = await as('POST', '/connect/webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(hook.status).to.equal(201);
    foreign.webhook_id = hook.body.id;
    // the endpoint is foreign, so whatever event is named the answer is 404 webhook_not_found
    foreign.event_id = 'evt_00000000000000000000000000000000';
    const job = await fetch(`${svc.api}/companies/${other.company_id}/invoices/bulk-import`, {
      method: 'POST', headers: { 'x-api-key': other.api_key, 'content-type': 'text/csv' },
      body: 'invoice_ref,issue_date,due_date,buyer_name,buyer_vat_id,item_name,quantity,unit_price,vat_rate\nA,2026-11-23,2026-12-07,B,SK2020273893,x,1,1.00,23\n',
    });
    expect(job.status, await job.clone().text()).to.equal(202);
    foreign.job_id = ((await job.json()) as { job_id: string }).job_id;
    const [company] = await svc.services.readModels.query('SELECT workspace_id FROM companies WHERE id = $1', [other.company_id]) as { workspace_id: string }[];
    foreign.workspace_id = company!.workspace_id;
  });
  after(async () => svc?.close());

  /** A body each route with a body accepts, so the answer is about the resource, not the body. */
  const samples: Record<string, unknown> = {
    createCustomer: { name: 'Odberateľ s.r.o.', vat_id: 'SK2020273893', ico: '35757442', city: 'Nitra' },
    replaceInvoice: { issue_date: '2026-11-23', due_date: '2026-12-07', buyer: { name: 'B', vat_id: 'SK2020273893', city: 'Nitra' }, lines: [{ item_name: 'x', quantity: '1', unit_code: 'C62', unit_price: '1.00', vat_rate: '23' }] },
    createInvoice: { issue_date: '2026-11-23', due_date: '2026-12-07', buyer: { name: 'B', vat_id: 'SK2020273893', city: 'Nitra' }, lines: [{ item_name: 'x', quantity: '1', unit_code: 'C62', unit_price: '1.00', vat_rate: '23' }] },
    markInvoiceSent: {},
    sendInvoice: {},
    validateInvoice: {},
    updateApiKey: { name: 'renamed' },
    createCreditNote: { reason: 'full_reversal' },
    rejectInvoice: { reason: 'not ours' },
    reversePayment: { reason: 'a mistake' },
    createWorkspaceWebhook: { url: 'http://127.0.0.1:9/hook' },
    updateWebhook: { description: 'ours now' },
    updateWebhookForWorkspace: { description: 'ours now' },
    updateCompany: { contact_name: 'ours now' },
    setSapiClientAllowlist: { cidrs: [] },
  };

  /**
   * Routes whose path names public data, not a resource of an organisation: a company register
   * entry is everyone's to look up (docs/lookup.md), so another organisation's company's IČO is
   * answered like any other.
   */
  const publicData: Record<string, string> = { lookupCompany: 'an IČO in the public company registers' };

  /** Query parameters a route requires. */
  const queries: Record<string, string> = { searchCustomers: '?q=odberatel' };

  it('every authenticated route declares the permission it needs', () => {
    const missing = svc.services.routes.filter((r) => r.auth === 'api' && !r.permission).map((r) => r.operationId);
    expect(missing).to.deep.equal([]);
  });

  it('answers 404 for every route that names a resource of another organisation', async () => {
    const routes = svc.services.routes.filter((r) => r.auth === 'api' && r.path.includes('{') && !(r.operationId in publicData));
    expect(routes.length).to.be.greaterThan(10);
    const misses: string[] = [];
    for (const route of routes) {
      const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      const unknown = params.filter((p) => !(p in foreign));
      expect(unknown, `${route.method} ${route.path}: add a foreign ${unknown.join(', ')} to this test`).to.deep.equal([]);
      if (route.body && !(route.operationId in samples)) expect.fail(`${route.operationId}: add a sample body to this test`);
      const path = route.path.replace(/\{(\w+)\}/g, (_all, name: string) => foreign[name] as string);
      const res = await svc.call(route.method, path + (queries[route.operationId] ?? ''), route.body ? samples[route.operationId] : undefined, route.method === 'PUT' || route.operationId === 'createCreditNote' || route.operationId === 'updateCompany' ? { 'if-match': '"0"' } : {});
      if (res.status !== 404) misses.push(`${route.method} ${route.path} -> ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(misses).to.deep.equal([]);
  });

  it('a public register entry is no organisation\'s resource: another organisation\'s company is looked up like any', async () => {
    const [company] = await svc.services.readModels.query('SELECT ico, name FROM companies WHERE id = $1', [foreign.company_id]) as { ico: string; name: string }[];
    const res = await svc.call('GET', `/lookup/companies/${company!.ico}`);
    expect([res.status, res.body.name]).to.deep.equal([200, company!.name]);
  });

  it('names no foreign resource in a body either: a foreign customer on an invoice is 404', async () => {
    const res = await svc.call('POST', `/companies/${svc.demo.companies[0]!.id}/invoices`, { issue_date: '2026-11-23', due_date: '2026-12-07', customer_id: foreign.customer_id, lines: [{ item_name: 'x', quantity: '1', unit_code: 'C62', unit_price: '1.00', vat_rate: '23' }] });
    expect(res.status).to.equal(404);
  });
});
