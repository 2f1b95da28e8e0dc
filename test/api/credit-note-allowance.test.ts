import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { withoutRequestId } from '../support/request-id.ts';

type Allowance = {
  invoice_id: string; creditable: boolean; refusal: string | null; total_gross: string; credited_gross: string; left_gross: string;
  buckets: { vat_rate: string; base: string; vat: string; gross: string; left_base: string; left_vat: string; left_gross: string }[];
  lines: { id: string; line_net: string; line_vat: string; left_quantity: string; returned_quantity: string }[];
};

describe('GET …/credit-notes/allowance over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;
  let company: string;
  let other: string;
  let customer: string;
  const year = String(new Date().getUTCFullYear());
  const allowanceOf = (companyId: string, invoiceId: string) => svc.call('GET', `/companies/${companyId}/invoices/${invoiceId}/credit-notes/allowance`);

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    other = svc.demo.companies[1]!.id;
    customer = (await svc.call('POST', `/companies/${company}/customers`, { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000004', city: 'Košice' })).body.id;
  });
  after(async () => svc?.close());

  async function invoice() {
    const created = await svc.call('POST', `/companies/${company}/invoices`, {
      issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer,
      lines: [
        { item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23' },
        { item_name: 'Kniha', quantity: '3', unit_price: '10.00', vat_rate: '5', discount_percentage: '10' },
      ],
    });
    expect(created.status).to.equal(201);
    return created.body as { id: string; version: number; total_gross: string; lines: { id: string }[] };
  }

  it('a draft is not creditable yet and has everything left; the ETag is the invoice version', async () => {
    const draft = await invoice();
    const answer = await eventually(() => allowanceOf(company, draft.id), (a) => a.status === 200);
    const allowance = answer.body as Allowance;
    expect(answer.headers.get('etag')).to.equal(`"${draft.version}"`);
    expect(allowance).to.include({ invoice_id: draft.id, creditable: false, total_gross: draft.total_gross, credited_gross: '0.00', left_gross: draft.total_gross });
    expect(allowance.refusal).to.match(/not issued yet/);
    expect(allowance.buckets.map((b) => [b.vat_rate, b.base, b.vat, b.left_gross])).to.deep.equal([['23', '200.00', '46.00', '246.00'], ['5', '27.00', '1.35', '28.35']]);
    expect(allowance.lines.map((l) => [l.id, l.line_net, l.left_quantity])).to.deep.equal([[draft.lines[0]!.id, '200.00', '2'], [draft.lines[1]!.id, '27.00', '3']]);
  });

  it('an invoice delivered by hand is creditable', async () => {
    const draft = await invoice();
    expect((await svc.call('POST', `/companies/${company}/invoices/${draft.id}/mark-sent`, { note: 'odovzdané osobne' })).status).to.equal(200);
    const allowance = (await eventually(() => allowanceOf(company, draft.id), (a) => a.body?.creditable === true)).body as Allowance;
    expect(allowance).to.include({ creditable: true, refusal: null, left_gross: '274.35' });
  });

  it('another company of the organisation, or an unknown invoice, gets 404 invoice_not_found; an unknown company 404 company_not_found', async () => {
    const draft = await invoice();
    await eventually(() => allowanceOf(company, draft.id), (a) => a.status === 200);
    const theirs = await allowanceOf(other, draft.id);
    const nobodys = await allowanceOf(other, '00000000-0000-4000-8000-000000000000');
    expect(theirs.status).to.equal(404);
    expect(withoutRequestId(theirs.body)).to.deep.equal(withoutRequestId(nobodys.body));
    expect(theirs.body.detail.error).to.equal('invoice_not_found');
    const noCompany = await allowanceOf('00000000-0000-4000-8000-000000000000', draft.id);
    expect([noCompany.status, noCompany.body.detail.error]).to.deep.equal([404, 'company_not_found']);
  });
});
