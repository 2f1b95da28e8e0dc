import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Invoice = {
  id: string; status: string; source: string; invoice_type: string; invoice_number: string; version: number; total_gross: string; note: string | null;
  lines: { id: string; item_name: string }[]; credited_invoice: { invoice_id: string; invoice_number: string; reason: string } | null;
};
type Allowance = { creditable: boolean; credited_gross: string; left_gross: string; buckets: { vat_rate: string; left_gross: string }[] };

describe('POST …/invoices/{id}/credit-notes over HTTP', function () {
  this.timeout(240_000);
  let svc: TestService;
  let sender: string;
  let receiver: string;
  let byHand: string;
  let peppolBuyer: string;
  const year = String(new Date().getUTCFullYear());

  const read = async (id: string, company = sender) => (await svc.call('GET', `/companies/${company}/invoices/${id}`)).body as Invoice;
  const allowance = async (id: string) => (await svc.call('GET', `/companies/${sender}/invoices/${id}/credit-notes/allowance`)).body as Allowance;
  const credit = (invoice: { id: string }, version: number | null, body: unknown) =>
    svc.call('POST', `/companies/${sender}/invoices/${invoice.id}/credit-notes`, body, version === null ? {} : { 'if-match': `"${version}"` });

  async function invoice(customer: string) {
    const created = await svc.call('POST', `/companies/${sender}/invoices`, {
      issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer,
      lines: [
        { item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23' },
        { item_name: 'Kniha', quantity: '3', unit_price: '10.00', vat_rate: '5' },
      ],
    });
    expect(created.status).to.equal(201);
    return created.body as Invoice;
  }

  /** An invoice finished by hand (mark-sent): creditable, and its credit notes are delivered by hand too. */
  async function handedOver() {
    const draft = await invoice(byHand);
    expect((await svc.call('POST', `/companies/${sender}/invoices/${draft.id}/mark-sent`, {})).status).to.equal(200);
    return read(draft.id);
  }

  before(async () => {
    svc = await startTestService();
    sender = svc.demo.companies[0]!.id;
    receiver = svc.demo.companies[1]!.id;
    const buyer = svc.demo.companies[1]!;
    byHand = (await svc.call('POST', `/companies/${sender}/customers`, { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000004', city: 'Košice' })).body.id;
    peppolBuyer = (await svc.call('POST', `/companies/${sender}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id })).body.id;
  });
  after(async () => svc?.close());

  it('a partial credit of an invoice finished by hand is delivered at once (201), numbered DOB-{year}-{seq}, and names its invoice', async () => {
    const issued = await handedOver();
    const answer = await credit(issued, issued.version, { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '24.60' }], note: 'zľava za oneskorenie' });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    const creditNote = answer.body as Invoice;
    expect(creditNote).to.include({ status: 'delivered', invoice_type: '381', total_gross: '24.60', source: 'api' });
    expect(creditNote.invoice_number).to.match(new RegExp(`^DOB-${year}-\\d+$`));
    expect(creditNote.credited_invoice).to.include({ invoice_id: issued.id, invoice_number: issued.invoice_number, reason: 'partial_credit' });
    expect(creditNote.note).to.contain('zľava za oneskorenie');
    expect(answer.headers.get('etag')).to.equal(`"${creditNote.version}"`);
    // its reservation and its issue moved the invoice's version: the old If-Match is stale now
    const invoiceVersion = Number(answer.headers.get('x-invoice-version'));
    expect(invoiceVersion).to.be.greaterThan(issued.version);
    expect((await read(issued.id)).version).to.equal(invoiceVersion);
    expect(await read(creditNote.id)).to.deep.equal(creditNote);
    const left = await allowance(issued.id);
    expect(left).to.include({ credited_gross: '24.60', left_gross: '252.90' });

    const stale = await credit(issued, issued.version, { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '1.00' }] });
    expect(stale.status).to.equal(412);
    expect(stale.body.detail.error).to.equal('version_mismatch');
  });

  it('refuses without If-Match (428), and answers 404 for an unknown invoice', async () => {
    const issued = await handedOver();
    const missing = await credit(issued, null, { reason: 'full_reversal' });
    expect(missing.status).to.equal(428);
    expect(missing.body.detail.error).to.equal('if_match_required');
    const unknown = await credit({ id: '00000000-0000-4000-8000-000000000000' }, 0, { reason: 'full_reversal' });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.detail.error).to.equal('invoice_not_found');
  });

  it('credit_limit_exceeded lists every offending entry and creates nothing', async () => {
    const issued = await handedOver();
    const refused = await credit(issued, issued.version, {
      reason: 'partial_credit',
      amounts: [{ vat_rate: '23', gross: '246.01' }, { vat_rate: '10', gross: '1.00' }, { vat_rate: '5', gross: '1.00' }, { vat_rate: '5', gross: '2.00' }],
    });
    expect(refused.status).to.equal(422);
    expect(refused.body.detail.error).to.equal('credit_limit_exceeded');
    expect(refused.body.detail.details.map((d: { rule: string; field: string }) => [d.rule, d.field])).to.deep.equal([
      ['vat_rate_cap', 'amounts[0].gross'], ['vat_rate_not_on_invoice', 'amounts[1].vat_rate'], ['vat_rate_repeated', 'amounts[3]'],
    ]);
    expect(refused.body.detail.details[0]).to.include({ left_base: '200.00', left_gross: '246.00', vat_rate: '23', vat_category_code: 'S' });
    expect((await read(issued.id)).version).to.equal(issued.version);
    expect(await allowance(issued.id)).to.include({ credited_gross: '0.00' });
  });

  it('refuses a field of another shape, and a shape without its field (422 request-body errors)', async () => {
    const issued = await handedOver();
    const extra = await credit(issued, issued.version, { reason: 'full_reversal', amounts: [] });
    expect(extra.status).to.equal(422);
    expect(extra.body.detail[0].loc).to.deep.equal(['body', 'amounts']);
    const missing = await credit(issued, issued.version, { reason: 'returned_goods' });
    expect(missing.status).to.equal(422);
    expect(missing.body.detail[0].loc).to.deep.equal(['body', 'lines']);
  });

  it('a draft is not creditable (409 not_creditable)', async () => {
    const draft = await invoice(byHand);
    const refused = await credit(draft, draft.version, { reason: 'full_reversal' });
    expect(refused.status).to.equal(409);
    expect(refused.body.detail.error).to.equal('not_creditable');
  });

  it('returned goods credit the rows named; a full reversal then voids the invoice, and a PUT on a credit note is 409 locked_credit_note', async () => {
    const issued = await handedOver();
    const returned = await credit(issued, issued.version, { reason: 'returned_goods', lines: [{ source_line_id: issued.lines[1]!.id, quantity: '1' }] });
    expect(returned.status, JSON.stringify(returned.body)).to.equal(201);
    expect((returned.body as Invoice).total_gross).to.equal('10.50');
    const reversal = await credit(issued, Number(returned.headers.get('x-invoice-version')), { reason: 'full_reversal' });
    expect(reversal.status, JSON.stringify(reversal.body)).to.equal(201);
    expect((reversal.body as Invoice).total_gross).to.equal('267.00');
    expect((await read(issued.id)).status).to.equal('voided');
    expect(await allowance(issued.id)).to.include({ creditable: false, left_gross: '0.00' });

    const put = await svc.call('PUT', `/companies/${sender}/invoices/${reversal.body.id}`, {
      issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: byHand, lines: [{ item_name: 'x', quantity: '1', unit_price: '1.00', vat_rate: '23' }],
    }, { 'if-match': `"${reversal.body.version}"` });
    expect(put.status).to.equal(409);
    expect(put.body.detail.error).to.equal('locked_credit_note');
  });

  it('void makes a full-reversal draft that counts only when sent; its send credits what is left then and voids the invoice', async () => {
    const issued = await handedOver();
    const voided = await svc.call('POST', `/companies/${sender}/invoices/${issued.id}/void`);
    expect(voided.status, JSON.stringify(voided.body)).to.equal(201);
    const draft = voided.body as Invoice;
    expect(draft).to.deep.include({ status: 'draft', invoice_type: '381', total_gross: '277.50' });
    expect(draft.credited_invoice).to.include({ invoice_id: issued.id, reason: 'full_reversal' });
    expect(await allowance(issued.id)).to.include({ credited_gross: '0.00', creditable: true });
    const again = await svc.call('POST', `/companies/${sender}/invoices/${issued.id}/void`);
    expect([again.status, again.body.id]).to.deep.equal([200, draft.id]);

    // meanwhile a partial credit is issued: the draft's send takes only what is left then
    const version = Number(voided.headers.get('x-invoice-version'));
    expect((await credit(issued, version, { reason: 'partial_credit', amounts: [{ vat_rate: '5', gross: '10.50' }] })).status).to.equal(201);
    const sent = await svc.call('POST', `/companies/${sender}/invoices/${draft.id}/mark-sent`, {});
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect(sent.body).to.deep.include({ status: 'delivered', total_gross: '267.00' });
    await eventually(() => read(issued.id), (i) => i.status === 'voided');
    expect(await allowance(issued.id)).to.include({ credited_gross: '277.50', left_gross: '0.00', creditable: false });
  });

  it('the sandbox loop: a full reversal of an invoice sent over Peppol is queued (202), delivered to company 1 as a CreditNote naming the invoice, and voids it', async () => {
    await svc.services.validator();
    const draft = await invoice(peppolBuyer);
    expect((await svc.call('POST', `/companies/${sender}/invoices/${draft.id}/send`)).status).to.equal(202);
    await eventually(() => read(draft.id), (i) => i.status === 'fs_acknowledged', { withinMs: 180_000 });
    // a late delivery status may still move the version: reload on 412, as a client does
    const queued = await eventually(async () => {
      const sent = await read(draft.id);
      return credit(sent, sent.version, { reason: 'full_reversal', note: 'storno' });
    }, (answer) => answer.status !== 412);
    expect(queued.status, JSON.stringify(queued.body)).to.equal(202);
    expect((queued.body as Invoice).status).to.equal('queued');
    const creditNote = queued.body as Invoice;

    await eventually(() => read(draft.id), (i) => i.status === 'voided', { withinMs: 180_000 });
    const inbound = await eventually(
      async () => ((await svc.call('GET', `/companies/${receiver}/invoices?q=${creditNote.invoice_number}`)).body.items as { id: string; source: string; invoice_type: string }[]),
      (items) => items.some((i) => i.source === 'peppol'), { withinMs: 180_000 },
    );
    const copy = inbound.find((i) => i.source === 'peppol')!;
    expect(copy.invoice_type).to.equal('381');
    const ubl = await fetch(`${svc.api}/companies/${receiver}/invoices/${copy.id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } });
    const xml = await ubl.text();
    expect(xml).to.contain('<CreditNote').and.contain('cac:BillingReference').and.contain(`<cbc:ID>${draft.invoice_number}</cbc:ID>`);
    const report = await (await svc.services.validator()).validate(xml);
    expect(report.errors, JSON.stringify(report.errors)).to.deep.equal([]);
    expect([report.xsd_valid, report.peppol_valid, report.slovak_valid]).to.deep.equal([true, true, true]);
  });
});
