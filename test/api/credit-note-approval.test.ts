import { expect } from 'chai';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Headers = Record<string, string>;

describe('a credit note an accountant makes waits for approval (rule 7) over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;
  let org: Awaited<ReturnType<typeof createTestOrganisation>>;
  let customer: string;
  const as: Record<'key' | 'approver' | 'accountant', Headers> = { key: {}, approver: {}, accountant: {} };
  const year = String(new Date().getUTCFullYear());
  const invoices = () => `/companies/${org.companyId}/invoices`;
  const allowance = async (id: string) => (await svc.call('GET', `${invoices()}/${id}/credit-notes/allowance`, undefined, as.key)).body as { credited_gross: string };

  before(async () => {
    svc = await startTestService();
    org = await createTestOrganisation(svc.services, 'Team Business', ['admin', 'approver', 'accountant']);
    as.key = { 'x-api-key': org.apiKey };
    for (const role of ['approver', 'accountant'] as const) {
      const user = org.users[role]!;
      const login = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) });
      as[role] = { 'x-api-key': '', authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
    }
    customer = (await svc.call('POST', `/companies/${org.companyId}/customers`, { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000004', city: 'Košice' }, as.key)).body.id;
  });
  after(async () => svc?.close());

  it('201 pending_approval counts against nothing and is not delivered; once another reviewer approves, its send counts it', async () => {
    const created = await svc.call('POST', invoices(), {
      issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer, lines: [{ item_name: 'Servis', quantity: '1', unit_price: '100.00', vat_rate: '23' }],
    }, as.key);
    const delivered = await svc.call('POST', `${invoices()}/${created.body.id}/mark-sent`, {}, as.key);
    const asked = await svc.call('POST', `${invoices()}/${created.body.id}/credit-notes`, { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '12.30' }] },
      { ...as.accountant, 'if-match': `"${delivered.body.version}"` });
    expect(asked.status, JSON.stringify(asked.body)).to.equal(201);
    const creditNote = asked.body as { id: string; status: string };
    expect(creditNote.status).to.equal('pending_approval');
    expect(await allowance(created.body.id)).to.include({ credited_gross: '0.00' });
    const approval = await svc.call('GET', `${invoices()}/${creditNote.id}/approval`, undefined, as.key);
    expect(approval.body.approval).to.include({ status: 'pending', requested_by: org.users.accountant!.id });

    // nothing is delivered before approval
    const early = await svc.call('POST', `${invoices()}/${creditNote.id}/mark-sent`, {}, as.approver);
    expect([early.status, early.body.detail?.error]).to.deep.equal([409, 'invalid_status']);
    expect((await svc.call('POST', `${invoices()}/${creditNote.id}/approve`, undefined, as.accountant)).status).to.equal(403);
    expect((await svc.call('POST', `${invoices()}/${creditNote.id}/approve`, undefined, as.approver)).status).to.equal(200);
    const sent = await svc.call('POST', `${invoices()}/${creditNote.id}/mark-sent`, {}, as.approver);
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect(sent.body.status).to.equal('delivered');
    expect(await allowance(created.body.id)).to.include({ credited_gross: '12.30' });
  });
});
