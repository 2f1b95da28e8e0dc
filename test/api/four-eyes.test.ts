// Issue 37, item 3: four eyes means two people, and an approval covers what was approved. Before
// the fix an organisation's API key approved its admin's request, key B approved key A's (200),
// and an approved invoice changed by a PUT (the amount ×1,000) still read `approved` and was sent.
import { expect } from 'chai';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Headers = Record<string, string>;
type Org = Awaited<ReturnType<typeof createTestOrganisation>>;
type Action = 'request-approval' | 'approve' | 'reject';

describe('four eyes over HTTP: two people, and a change voids the approval', function () {
  this.timeout(240_000);
  let svc: TestService;
  let org: Org;
  let customer: string;
  const as: Record<'key' | 'keyB' | 'adminKey' | 'keyOfAdminKey' | 'oauth' | 'admin' | 'approver' | 'accountant', Headers> = {
    key: {}, keyB: {}, adminKey: {}, keyOfAdminKey: {}, oauth: {}, admin: {}, approver: {}, accountant: {},
  };
  const year = String(new Date().getUTCFullYear());
  const body = (quantity = '1') => ({
    issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer,
    lines: [{ item_name: 'Servis', quantity, unit_price: '120.00', vat_rate: '23' }],
  });
  const invoices = () => `/companies/${org.companyId}/invoices`;
  const act = (who: Headers, id: string, action: Action, payload?: unknown, extra: Headers = {}) => svc.call('POST', `${invoices()}/${id}/${action}`, payload, { ...who, ...extra });
  const answer = (r: { status: number; body: { detail?: { error?: string } } }) => [r.status, r.body.detail?.error];
  const approval = async (id: string) => (await svc.call('GET', `${invoices()}/${id}/approval`, undefined, as.approver)).body.approval;
  const invoice = async (id: string) => (await svc.call('GET', `${invoices()}/${id}`, undefined, as.approver)).body as { status: string; version: number; total_gross: string };
  const draft = async (who: Headers) => {
    const created = await svc.call('POST', invoices(), body(), who);
    expect(created.status).to.equal(201);
    return created.body as { id: string; version: number };
  };
  /** A draft `who` asked approval for. */
  const asked = async (who: Headers) => {
    const { id } = await draft(who);
    const request = await act(who, id, 'request-approval');
    expect(request.status, JSON.stringify(request.body)).to.equal(200);
    return id;
  };
  const newKey = async (by: Headers, name: string): Promise<Headers> => {
    const made = await svc.call('POST', '/api-keys', { name }, by);
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    return { 'x-api-key': made.body.api_key };
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
    // key B made by the organisation's key; a key the admin made, and a key that key made in turn
    as.keyB = await newKey(as.key, 'key B');
    as.adminKey = await newKey(as.admin, 'admin key');
    as.keyOfAdminKey = await newKey(as.adminKey, 'key of the admin key');
    const client = await svc.call('POST', '/oauth2/clients', { name: 'ERP' }, as.admin);
    expect(client.status).to.equal(201);
    const token = await svc.call('POST', '/oauth2/token', { grant_type: 'client_credentials', client_id: client.body.client_id, client_secret: client.body.client_secret }, { 'x-api-key': '' });
    expect(token.status).to.equal(200);
    as.oauth = { 'x-api-key': '', authorization: `Bearer ${token.body.access_token}` };
    const buyer = svc.demo.companies[1]!;
    const made = await svc.call('POST', `/companies/${org.companyId}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id }, as.key);
    expect(made.status).to.equal(201);
    customer = made.body.id;
  });
  after(async () => svc?.close());

  describe('the reviewer is another person than the requester', () => {
    it('an admin asks, the organisation\'s API key may not approve (was 200): 403 reviewer_must_be_user; another user approves', async () => {
      const id = await asked(as.admin);
      const byKey = await act(as.key, id, 'approve');
      expect(answer(byKey)).to.deep.equal([403, 'reviewer_must_be_user']);
      expect(byKey.body.detail.credential).to.equal('api_key');
      expect(answer(await act(as.key, id, 'reject', { reason: 'nie' }))).to.deep.equal([403, 'reviewer_must_be_user']);
      expect(await approval(id)).to.include({ status: 'pending' });
      expect(answer(await act(as.admin, id, 'approve'))).to.deep.equal([403, 'self_review_not_allowed']);
      const approved = await act(as.approver, id, 'approve');
      expect(approved.status).to.equal(200);
      expect(await approval(id)).to.include({ status: 'approved', reviewed_by: org.users.approver!.id });
    });

    it('key A asks, key B may not approve (was 200), nor an OAuth client; a user approves', async () => {
      const id = await asked(as.key);
      expect(answer(await act(as.keyB, id, 'approve'))).to.deep.equal([403, 'reviewer_must_be_user']);
      expect(answer(await act(as.key, id, 'approve'))).to.deep.equal([403, 'reviewer_must_be_user']);
      const byClient = await act(as.oauth, id, 'approve');
      expect(answer(byClient)).to.deep.equal([403, 'reviewer_must_be_user']);
      expect(byClient.body.detail.credential).to.equal('oauth_client');
      // the organisation's first key was issued by the service itself: it stands for no user, so the admin may review it
      expect((await act(as.admin, id, 'approve')).status).to.equal(200);
    });

    it('a key\'s request is its creator\'s: the admin who made the key may not review it, nor one a key of theirs made; another user may', async () => {
      for (const key of [as.adminKey, as.keyOfAdminKey]) {
        const id = await asked(key);
        const self = await act(as.admin, id, 'approve');
        expect(answer(self)).to.deep.equal([403, 'self_review_not_allowed']);
        expect(self.body.detail.requested_by_person).to.equal(org.users.admin!.id);
        expect(answer(await act(as.admin, id, 'reject', { reason: 'nie' }))).to.deep.equal([403, 'self_review_not_allowed']);
        expect((await act(as.approver, id, 'reject', { reason: 'Nesprávna cena' })).status).to.equal(200);
      }
    });

    it('an OAuth client\'s request is its creator\'s likewise', async () => {
      const id = await asked(as.oauth);
      expect(answer(await act(as.admin, id, 'approve'))).to.deep.equal([403, 'self_review_not_allowed']);
      expect((await act(as.approver, id, 'approve')).status).to.equal(200);
    });

    it('says the rule in /openapi.json', async () => {
      const doc = await (await fetch(`${svc.root}/openapi.json`)).json() as { paths: Record<string, Record<string, { description: string; responses: Record<string, { description: string }> }>> };
      const approve = doc.paths['/companies/{company_id}/invoices/{invoice_id}/approve']?.post;
      expect(approve?.description).to.contain('Four eyes means two people');
      expect(approve?.responses['403']?.description).to.contain('reviewer_must_be_user').and.contain('self_review_not_allowed');
      expect(doc.paths['/companies/{company_id}/invoices/{invoice_id}/approval']?.get?.description).to.contain('voided');
    });
  });

  describe('a change after approval voids it', () => {
    /** An invoice the accountant asked approval for and the approver approved; its version now. */
    const approvedInvoice = async () => {
      const id = await asked(as.accountant);
      expect((await act(as.approver, id, 'approve')).status).to.equal(200);
      return { id, ...(await invoice(id)) };
    };

    it('a PUT with the amount ×1,000 voids it (was still `approved`): the record says which change, when, by whom; the send is refused until a new approval', async () => {
      const before = await approvedInvoice();
      expect(before.status).to.equal('approved');
      const put = await svc.call('PUT', `${invoices()}/${before.id}`, body('1000'), { ...as.accountant, 'if-match': `"${before.version}"` });
      expect(put.status).to.equal(200);
      expect(put.body.status).to.equal('draft');

      const voided = await approval(before.id);
      expect(voided).to.include({ status: 'voided', reviewed_by: org.users.approver!.id });
      expect(voided.voided).to.include({ change: 'invoice_updated', approved_total_gross: '147.60', total_gross: '147600.00', by: org.users.accountant!.id });
      expect(voided.voided.changed_fields).to.deep.equal(['lines']);
      expect(Date.parse(voided.voided.at)).to.not.be.NaN;

      // the send after the void is refused whatever version it names: a stale If-Match (the approved version) is not a way through
      for (const ifMatch of [{} as Headers, { 'if-match': `"${before.version}"` }, { 'if-match': `"${put.body.version}"` }]) {
        const send = await svc.call('POST', `${invoices()}/${before.id}/send`, undefined, { ...as.approver, ...ifMatch });
        expect(answer(send), JSON.stringify(ifMatch)).to.deep.equal([409, 'invalid_status']);
        expect(send.body.detail).to.include({ status: 'draft', approval_status: 'voided' });
      }
      expect(answer(await svc.call('POST', `${invoices()}/${before.id}/mark-sent`, {}, as.approver))).to.deep.equal([409, 'invalid_status']);
      expect(await invoice(before.id)).to.include({ status: 'draft' });

      // a new request, approved by another person, and it goes
      expect((await act(as.accountant, before.id, 'request-approval')).status).to.equal(200);
      expect((await act(as.approver, before.id, 'approve')).status).to.equal(200);
      expect(await approval(before.id)).to.include({ status: 'approved', voided: null });
      expect((await svc.call('POST', `${invoices()}/${before.id}/send`, undefined, as.approver)).status).to.equal(202);
    });

    it('a send racing the PUT never sends what was not approved: either the send wins and the PUT is refused, or the PUT voids and the send is refused', async () => {
      for (let round = 0; round < 4; round++) {
        const before = await approvedInvoice();
        const [put, send] = await Promise.all([
          svc.call('PUT', `${invoices()}/${before.id}`, body('1000'), { ...as.accountant, 'if-match': `"${before.version}"` }),
          svc.call('POST', `${invoices()}/${before.id}/send`, undefined, as.approver),
        ]);
        const outcome = `PUT ${put.status}, send ${send.status}`;
        expect(put.status === 200 && send.status === 202, outcome).to.equal(false);
        expect(put.status === 200 || send.status === 202, outcome).to.equal(true);
        const after = await invoice(before.id);
        if (send.status === 202) {
          expect([409, 412]).to.include(put.status);
          expect(after.total_gross).to.equal('147.60');
        } else {
          expect(answer(send)).to.deep.equal([409, 'invalid_status']);
          expect((await approval(before.id)).status).to.equal('voided');
        }
      }
    });
  });
});
