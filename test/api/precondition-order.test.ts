import { expect } from 'chai';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Headers = Record<string, string>;
type Invoice = { id: string; status: string; version: number; invoice_number: string };

/**
 * RFC 9110 §13.2.1 over HTTP: what can never succeed (not found, a locked credit note, a status
 * that allows no such change, a caller who may not) is answered so before If-Match is asked for
 * (428) or found stale (412); what the request asks for is checked after them
 * (commands/shared/preconditions.ts). Every route that takes If-Match.
 */
describe('precondition order over HTTP: standing refusals before 428 and 412', function () {
  this.timeout(240_000);
  let svc: TestService;
  let sender: string;
  let byHand: string;
  const year = String(new Date().getUTCFullYear());
  const unknownId = '00000000-0000-4000-8000-000000000000';
  const stale = (version: number): Headers => ({ 'if-match': `"${version + 7}"` });
  const current = (version: number): Headers => ({ 'if-match': `"${version}"` });
  const invoices = () => `/companies/${sender}/invoices`;
  const body = (extra: Record<string, unknown> = {}) => ({
    issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: byHand,
    lines: [{ item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23' }], ...extra,
  });
  const answer = (res: { status: number; body: { detail?: { error?: string } } }) => [res.status, res.body.detail?.error];
  const read = async (id: string) => (await svc.call('GET', `${invoices()}/${id}`)).body as Invoice;

  async function draft(): Promise<Invoice> {
    const created = await svc.call('POST', invoices(), body());
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body as Invoice;
  }
  /** an invoice finished by hand: delivered, creditable, no longer editable */
  async function handedOver(): Promise<Invoice> {
    const made = await draft();
    expect((await svc.call('POST', `${invoices()}/${made.id}/mark-sent`, {})).status).to.equal(200);
    return read(made.id);
  }
  const credit = (invoice: { id: string }, headers: Headers, request: unknown = { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '12.30' }] }) =>
    svc.call('POST', `${invoices()}/${invoice.id}/credit-notes`, request, headers);

  before(async () => {
    svc = await startTestService();
    sender = svc.demo.companies[0]!.id;
    byHand = (await svc.call('POST', `/companies/${sender}/customers`, { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000004', city: 'Košice' })).body.id;
  });
  after(async () => svc?.close());

  describe('PUT …/invoices/{id}', () => {
    it('a credit note made through the credit-note route is 409 locked_credit_note, without If-Match and with a stale one', async () => {
      const issued = await handedOver();
      const made = await credit(issued, current(issued.version));
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      const creditNote = made.body as Invoice;
      const path = `${invoices()}/${creditNote.id}`;
      const replacement = body({ invoice_number: creditNote.invoice_number });
      const without = await svc.call('PUT', path, replacement);
      expect(answer(without)).to.deep.equal([409, 'locked_credit_note']);
      expect(without.body.detail.credited_invoice_id).to.equal(issued.id);
      expect(answer(await svc.call('PUT', path, replacement, stale(creditNote.version)))).to.deep.equal([409, 'locked_credit_note']);
      expect(answer(await svc.call('PUT', path, replacement, current(creditNote.version)))).to.deep.equal([409, 'locked_credit_note']);
      expect((await read(creditNote.id)).version).to.equal(creditNote.version);
    });

    it('an invoice that is no longer edited is 409 invalid_status, without If-Match and with a stale one', async () => {
      const issued = await handedOver();
      const path = `${invoices()}/${issued.id}`;
      const replacement = body({ invoice_number: issued.invoice_number });
      expect(answer(await svc.call('PUT', path, replacement))).to.deep.equal([409, 'invalid_status']);
      expect(answer(await svc.call('PUT', path, replacement, stale(issued.version)))).to.deep.equal([409, 'invalid_status']);
    });

    it('an unknown invoice, or one of an unknown company, is 404 without If-Match', async () => {
      expect(answer(await svc.call('PUT', `${invoices()}/${unknownId}`, body()))).to.deep.equal([404, 'invoice_not_found']);
      expect(answer(await svc.call('PUT', `/companies/${unknownId}/invoices/${unknownId}`, body()))).to.deep.equal([404, 'company_not_found']);
    });

    it('on an editable draft the preconditions still apply, and come before what the body asks (a new number)', async () => {
      const made = await draft();
      const path = `${invoices()}/${made.id}`;
      expect(answer(await svc.call('PUT', path, body({ invoice_number: made.invoice_number })))).to.deep.equal([428, 'if_match_required']);
      expect(answer(await svc.call('PUT', path, body({ invoice_number: 'OTHER-1' })))).to.deep.equal([428, 'if_match_required']);
      expect(answer(await svc.call('PUT', path, body({ invoice_number: 'OTHER-1' }), stale(made.version)))).to.deep.equal([412, 'version_mismatch']);
      expect(answer(await svc.call('PUT', path, body({ invoice_number: 'OTHER-1' }), current(made.version)))).to.deep.equal([409, 'invoice_number_immutable']);
      expect((await svc.call('PUT', path, body({ invoice_number: made.invoice_number }), current(made.version))).status).to.equal(200);
    });
  });

  describe('POST …/invoices/{id}/credit-notes', () => {
    it('an unknown invoice is 404 without If-Match', async () => {
      expect(answer(await credit({ id: unknownId }, {}))).to.deep.equal([404, 'invoice_not_found']);
    });

    it('an invoice not issued yet is 409 not_creditable, without If-Match and with a stale one', async () => {
      const made = await draft();
      expect(answer(await credit(made, {}))).to.deep.equal([409, 'not_creditable']);
      expect(answer(await credit(made, stale(made.version)))).to.deep.equal([409, 'not_creditable']);
    });

    it('after a full reversal the old If-Match is not_creditable (nothing can be credited any more), not 412', async () => {
      const issued = await handedOver();
      const reversed = await credit(issued, current(issued.version), { reason: 'full_reversal' });
      expect(reversed.status, JSON.stringify(reversed.body)).to.equal(201);
      expect((await read(issued.id)).status).to.equal('voided');
      expect(answer(await credit(issued, current(issued.version), { reason: 'full_reversal' }))).to.deep.equal([409, 'not_creditable']);
      expect(answer(await credit(issued, {}, { reason: 'full_reversal' }))).to.deep.equal([409, 'not_creditable']);
    });

    it('on a creditable invoice 428 and 412 come before what the request asks (an amount over what is left)', async () => {
      const issued = await handedOver();
      const tooMuch = { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '999.00' }] };
      expect(answer(await credit(issued, {}, tooMuch))).to.deep.equal([428, 'if_match_required']);
      expect(answer(await credit(issued, stale(issued.version), tooMuch))).to.deep.equal([412, 'version_mismatch']);
      expect(answer(await credit(issued, current(issued.version), tooMuch))).to.deep.equal([422, 'credit_limit_exceeded']);
    });
  });

  describe('the routes where If-Match is optional: a stale one comes after the standing refusals', () => {
    it('send of an invoice sent already: 409 invalid_status; mark-sent again is a repeat that would succeed, so its stale If-Match is 412', async () => {
      const issued = await handedOver();
      expect(answer(await svc.call('POST', `${invoices()}/${issued.id}/send`, undefined, stale(issued.version)))).to.deep.equal([409, 'invalid_status']);
      expect(answer(await svc.call('POST', `${invoices()}/${issued.id}/mark-sent`, {}, stale(issued.version)))).to.deep.equal([412, 'version_mismatch']);
      expect((await svc.call('POST', `${invoices()}/${issued.id}/mark-sent`, {})).status).to.equal(200);
    });

    it('void of an invoice that cannot be credited: 409 not_creditable; of an unknown one: 404', async () => {
      const made = await draft();
      expect(answer(await svc.call('POST', `${invoices()}/${made.id}/void`, undefined, stale(made.version)))).to.deep.equal([409, 'not_creditable']);
      expect(answer(await svc.call('POST', `${invoices()}/${unknownId}/void`, undefined, stale(0)))).to.deep.equal([404, 'invoice_not_found']);
    });

    it('send and void still answer a stale If-Match with 412 where they would act', async () => {
      const made = await draft();
      expect(answer(await svc.call('POST', `${invoices()}/${made.id}/mark-sent`, {}, stale(made.version)))).to.deep.equal([412, 'version_mismatch']);
      const issued = await handedOver();
      expect(answer(await svc.call('POST', `${invoices()}/${issued.id}/void`, undefined, stale(issued.version)))).to.deep.equal([412, 'version_mismatch']);
    });

    it('approvals: approve or reject without a pending request is 409 invalid_status, a self-review 403, before a stale If-Match', async () => {
      const org = await createTestOrganisation(svc.services, 'Team Business', ['admin', 'approver', 'accountant']);
      const as: Record<'admin' | 'approver' | 'accountant', Headers> = { admin: {}, approver: {}, accountant: {} };
      for (const role of ['admin', 'approver', 'accountant'] as const) {
        const user = org.users[role]!;
        const login = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) });
        expect(login.status).to.equal(200);
        as[role] = { 'x-api-key': '', authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
      }
      const buyer = (await svc.call('POST', `/companies/${org.companyId}/customers`, { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000004', city: 'Košice' }, { 'x-api-key': org.apiKey })).body.id;
      const own = `/companies/${org.companyId}/invoices`;
      const made = await svc.call('POST', own, { ...body(), customer_id: buyer }, as.accountant);
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      const invoice = made.body as Invoice;
      const act = (who: Headers, action: string, headers: Headers, payload?: unknown) => svc.call('POST', `${own}/${invoice.id}/${action}`, payload, { ...who, ...headers });

      expect(answer(await act(as.approver, 'approve', stale(invoice.version)))).to.deep.equal([409, 'invalid_status']);
      expect(answer(await act(as.approver, 'reject', stale(invoice.version), { reason: 'no' }))).to.deep.equal([409, 'invalid_status']);
      // an admin may ask and may review, but not their own request
      const asked = await act(as.admin, 'request-approval', current(invoice.version));
      expect(asked.status, JSON.stringify(asked.body)).to.equal(200);
      expect(answer(await act(as.admin, 'approve', stale(invoice.version)))).to.deep.equal([403, 'self_review_not_allowed']);
      // a pending invoice is neither asked about again, nor sent, nor marked sent
      expect(answer(await act(as.accountant, 'request-approval', stale(invoice.version)))).to.deep.equal([409, 'invalid_status']);
      expect(answer(await act(as.approver, 'mark-sent', stale(invoice.version), {}))).to.deep.equal([409, 'invalid_status']);
      // where the review would succeed, a stale If-Match is the answer
      expect(answer(await act(as.approver, 'approve', stale(invoice.version)))).to.deep.equal([412, 'version_mismatch']);
    });
  });
});
