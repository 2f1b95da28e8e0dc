import { expect } from 'chai';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Headers = Record<string, string>;
type Org = Awaited<ReturnType<typeof createTestOrganisation>>;

describe('approvals over HTTP: request-approval, approve, reject, GET …/approval', function () {
  this.timeout(180_000);
  let svc: TestService;
  let org: Org;
  let customer: string;
  const as: Record<'key' | 'admin' | 'approver' | 'accountant', Headers> = { key: {}, admin: {}, approver: {}, accountant: {} };
  const year = String(new Date().getUTCFullYear());
  const body = (quantity = '1') => ({
    issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer,
    lines: [{ item_name: 'Servis', quantity, unit_price: '120.00', vat_rate: '23' }],
  });
  const invoices = () => `/companies/${org.companyId}/invoices`;
  const act = (who: Headers, id: string, action: 'request-approval' | 'approve' | 'reject', payload?: unknown, extra: Headers = {}) =>
    svc.call('POST', `${invoices()}/${id}/${action}`, payload, { ...who, ...extra });
  const approval = (id: string, who = as.key) => svc.call('GET', `${invoices()}/${id}/approval`, undefined, who);
  const invoice = async (id: string) => (await svc.call('GET', `${invoices()}/${id}`, undefined, as.key)).body as { status: string; version: number };
  const draft = async (who = as.accountant) => {
    const created = await svc.call('POST', invoices(), body(), who);
    expect(created.status).to.equal(201);
    return created.body as { id: string; version: number };
  };

  before(async () => {
    svc = await startTestService();
    org = await createTestOrganisation(svc.services, 'Team Business', ['admin', 'approver', 'accountant']);
    as.key = { 'x-api-key': org.apiKey };
    for (const role of ['admin', 'approver', 'accountant'] as const) {
      const user = org.users[role]!;
      const login = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) });
      expect(login.status).to.equal(200);
      as[role] = { 'x-api-key': '', authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
    }
    const buyer = svc.demo.companies[1]!;
    const made = await svc.call('POST', `/companies/${org.companyId}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id }, as.key);
    expect(made.status).to.equal(201);
    customer = made.body.id;
  });
  after(async () => svc?.close());

  it('an invoice never asked about has approval null; the ETag is the invoice version', async () => {
    const created = await draft();
    const state = await approval(created.id);
    expect(state.status).to.equal(200);
    expect(state.body).to.deep.equal({ invoice_id: created.id, approval: null });
    expect(state.headers.get('etag')).to.equal(`"${created.version}"`);
  });

  it('an accountant asks: pending_approval, neither sent nor edited; an accountant may not approve; an approver approves, then it is sent (202)', async () => {
    const created = await draft();
    const asked = await act(as.accountant, created.id, 'request-approval');
    expect(asked.status).to.equal(200);
    expect(asked.body).to.deep.include({ invoice_id: created.id, status: 'pending', reason: null });
    expect(asked.headers.get('etag')).to.equal(`"${created.version + 1}"`);
    expect(await invoice(created.id)).to.include({ status: 'pending_approval', version: created.version + 1 });
    const pending = (await approval(created.id, as.approver)).body.approval;
    expect(pending).to.deep.include({ id: asked.body.id, status: 'pending', requested_by: org.users.accountant!.id, reviewed_by: null, reviewed_at: null, reason: null });
    expect(Date.parse(pending.requested_at)).to.be.a('number').and.not.NaN;

    const listed = await svc.call('GET', `${invoices()}?status=pending_approval`, undefined, as.key);
    expect(listed.body.items.map((i: { id: string }) => i.id)).to.include(created.id);
    const send = await svc.call('POST', `${invoices()}/${created.id}/send`, undefined, as.approver);
    expect([send.status, send.body.detail.error, send.body.detail.status]).to.deep.equal([409, 'invalid_status', 'pending_approval']);
    const put = await svc.call('PUT', `${invoices()}/${created.id}`, body('2'), { ...as.accountant, 'if-match': `"${created.version + 1}"` });
    expect([put.status, put.body.detail.error]).to.deep.equal([409, 'invalid_status']);
    const again = await act(as.accountant, created.id, 'request-approval');
    expect([again.status, again.body.detail.error]).to.deep.equal([409, 'invalid_status']);

    const byAccountant = await act(as.accountant, created.id, 'approve');
    expect([byAccountant.status, byAccountant.body.detail.error]).to.deep.equal([403, 'insufficient_role']);

    const approved = await act(as.approver, created.id, 'approve');
    expect(approved.status).to.equal(200);
    expect(approved.body).to.deep.equal({ id: asked.body.id, invoice_id: created.id, status: 'approved', reason: null });
    expect(await invoice(created.id)).to.include({ status: 'approved' });
    expect((await approval(created.id)).body.approval).to.include({ status: 'approved', reviewed_by: org.users.approver!.id });
    expect((await act(as.approver, created.id, 'approve')).status).to.equal(409);
    const sent = await svc.call('POST', `${invoices()}/${created.id}/send`, undefined, as.approver);
    expect(sent.status).to.equal(202);
  });

  it('a rejection needs a reason (422), makes the invoice a draft again, editable, and it may ask again', async () => {
    const created = await draft();
    expect((await act(as.accountant, created.id, 'request-approval')).status).to.equal(200);
    for (const payload of [undefined, {}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(1001) }]) {
      expect((await act(as.approver, created.id, 'reject', payload)).status, JSON.stringify(payload)).to.equal(422);
    }
    const rejected = await act(as.approver, created.id, 'reject', { reason: 'Nesprávna cena' });
    expect(rejected.status).to.equal(200);
    expect(rejected.body).to.include({ invoice_id: created.id, status: 'rejected', reason: 'Nesprávna cena' });
    const after = await invoice(created.id);
    expect(after.status).to.equal('draft');
    expect((await approval(created.id, as.accountant)).body.approval).to.include({ status: 'rejected', reason: 'Nesprávna cena', reviewed_by: org.users.approver!.id });
    const put = await svc.call('PUT', `${invoices()}/${created.id}`, body('2'), { ...as.accountant, 'if-match': `"${after.version}"` });
    expect(put.status).to.equal(200);
    const asked = await act(as.accountant, created.id, 'request-approval');
    expect(asked.body).to.include({ status: 'pending' });
    expect(asked.body.id).to.not.equal(rejected.body.id);
    expect((await approval(created.id)).body.approval).to.include({ id: asked.body.id, status: 'pending', reason: null });
  });

  it('an approved invoice that is edited is a draft again, its approval voided, and needs approval again', async () => {
    const created = await draft();
    await act(as.accountant, created.id, 'request-approval');
    await act(as.approver, created.id, 'approve');
    const { version } = await invoice(created.id);
    const put = await svc.call('PUT', `${invoices()}/${created.id}`, body('3'), { ...as.accountant, 'if-match': `"${version}"` });
    expect(put.status).to.equal(200);
    expect(put.body.status).to.equal('draft');
    expect((await approval(created.id)).body.approval).to.include({ status: 'voided' });
    expect((await act(as.accountant, created.id, 'request-approval')).body).to.include({ status: 'pending' });
  });

  it('four eyes: the requester never reviews their own request (403 self_review_not_allowed), and an API key never reviews (four-eyes.test.ts)', async () => {
    const byAdmin = await draft(as.admin);
    expect((await act(as.admin, byAdmin.id, 'request-approval')).status).to.equal(200);
    const self = await act(as.admin, byAdmin.id, 'approve');
    expect([self.status, self.body.detail.error, self.body.detail.requested_by]).to.deep.equal([403, 'self_review_not_allowed', org.users.admin!.id]);
    expect((await act(as.admin, byAdmin.id, 'reject', { reason: 'nie' })).body.detail.error).to.equal('self_review_not_allowed');
    expect((await act(as.key, byAdmin.id, 'approve')).body.detail.error).to.equal('reviewer_must_be_user'); // the key acts for the organisation, not as a person
    expect((await act(as.approver, byAdmin.id, 'approve')).status).to.equal(200);

    const byKey = await draft(as.key);
    expect((await act(as.key, byKey.id, 'request-approval')).status).to.equal(200);
    expect((await act(as.key, byKey.id, 'approve')).body.detail.error).to.equal('reviewer_must_be_user');
    expect((await act(as.admin, byKey.id, 'approve')).status).to.equal(200);
  });

  it('If-Match is optional: a stale one is 412 and changes nothing, the current one is taken', async () => {
    const created = await draft();
    const stale = await act(as.accountant, created.id, 'request-approval', undefined, { 'if-match': `"${created.version + 5}"` });
    expect([stale.status, stale.body.detail.error]).to.deep.equal([412, 'version_mismatch']);
    expect(await invoice(created.id)).to.include({ status: 'draft' });
    const current = await act(as.accountant, created.id, 'request-approval', undefined, { 'if-match': `"${created.version}"` });
    expect(current.status).to.equal(200);
  });

  it('documents the routes in /openapi.json, with the four-eyes refusal', async () => {
    const doc = await (await fetch(`${svc.root}/openapi.json`)).json() as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { description: string }> }>> };
    const at = '/companies/{company_id}/invoices/{invoice_id}';
    expect(doc.paths[`${at}/request-approval`]?.post?.operationId).to.equal('requestInvoiceApproval');
    expect(doc.paths[`${at}/approve`]?.post?.responses['403']?.description).to.contain('self_review_not_allowed');
    expect(doc.paths[`${at}/reject`]?.post?.responses['403']?.description).to.contain('insufficient_role');
    expect(doc.paths[`${at}/approval`]?.get?.operationId).to.equal('getInvoiceApproval');
  });

  it('another organisation\'s invoice is not found (404 invoice_not_found), before anything is said about its status', async () => {
    const created = await draft();
    await act(as.accountant, created.id, 'request-approval');
    const theirs = `/companies/${svc.demo.companies[0]!.id}/invoices/${created.id}`;
    for (const [method, path, payload] of [
      ['POST', `${theirs}/request-approval`, undefined], ['POST', `${theirs}/approve`, undefined], ['POST', `${theirs}/reject`, { reason: 'x' }], ['GET', `${theirs}/approval`, undefined],
    ] as const) {
      const answer = await svc.call(method, path, payload);
      expect([answer.status, answer.body.detail.error], path).to.deep.equal([404, 'invoice_not_found']);
    }
    expect((await svc.call('GET', `/companies/${svc.demo.companies[0]!.id}/invoices/00000000-0000-4000-8000-000000000000/approval`)).status).to.equal(404);
  });
});
