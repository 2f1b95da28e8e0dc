import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';

describe('invoices over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;
  let company: string;
  let customerId: string;
  const year = String(new Date().getUTCFullYear());
  const invoices = (c = company) => `/companies/${c}/invoices`;
  const line = (over: Record<string, unknown> = {}) => ({ item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23', ...over });
  const draft = (over: Record<string, unknown> = {}) => ({ issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customerId, lines: [line()], ...over });

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    const customer = await svc.call('POST', `/companies/${company}/customers`, {
      name: 'Odberateľ Košice s.r.o.', vat_id: 'SK2020000004', dic: '2020000004', ico: '35757442', city: 'Košice', postal_code: '04001', peppol_id: '9950:sk2020000004svctest',
    });
    customerId = customer.body.id;
  });
  after(async () => svc?.close());

  describe('create', () => {
    it('answers 201 with a draft, the next series number and computed totals; supplier from the company, buyer from the customer', async () => {
      const created = await svc.call('POST', invoices(), draft({ lines: [line(), line({ item_name: 'Kniha', quantity: '1', unit_price: '10.00', vat_rate: '5' })] }));
      expect(created.status).to.equal(201);
      const inv = created.body;
      expect(inv).to.include({ status: 'draft', invoice_number: `${year}000001`, variable_symbol: `${year}000001`, invoice_type: '380', currency_code: 'EUR', version: 0 });
      // 2 × 100.00 at 23 % = 200.00 + 46.00; 1 × 10.00 at 5 % = 10.00 + 0.50
      expect(inv).to.include({ total_net: '210.00', total_vat: '46.50', total_gross: '256.50', amount_due: '256.50', zzz_correction_amount: '0.00' });
      expect(inv.vat_breakdown).to.deep.equal([
        { vat_category_code: 'S', vat_rate: '23', vat_exemption_reason_code: null, taxable_amount: '200.00', tax_amount: '46.00' },
        { vat_category_code: 'S', vat_rate: '5', vat_exemption_reason_code: null, taxable_amount: '10.00', tax_amount: '0.50' },
      ]);
      expect(inv.lines.map((l: { line_number: number; line_gross_amount: string }) => [l.line_number, l.line_gross_amount])).to.deep.equal([[1, '246.00'], [2, '10.50']]);
      expect(inv.lines[0].id).to.match(/^[0-9a-f-]{36}$/);
      expect(inv.supplier.vat_id).to.equal(svc.demo.companies[0]!.vat_id);
      expect(inv.supplier_iban).to.equal(svc.demo.companies[0]!.iban);
      expect(inv.buyer).to.include({ name: 'Odberateľ Košice s.r.o.', vat_id: 'SK2020000004', city: 'Košice' });
      expect(created.headers.get('etag')).to.equal('"0"');
      const read = await svc.call('GET', `${invoices()}/${inv.id}`);
      expect(read.body).to.deep.equal(inv);
      expect((await svc.call('GET', `/invoices/${inv.id}`)).body.id).to.equal(inv.id);
    });

    it('refuses a rate of 0 in category S with the invoice-validation 422, consuming no number', async () => {
      const before = (await svc.call('GET', `${invoices()}/numbering/next?year=${year}`)).body.invoice_number;
      const refused = await svc.call('POST', invoices(), draft({ lines: [line({ vat_rate: '0' })] }));
      expect(refused.status).to.equal(422);
      expect(refused.body.detail.message).to.be.a('string');
      expect(refused.body.detail.errors.map((e: { rule: string }) => e.rule)).to.include('BR-S-05');
      expect(refused.body.detail.errors[0]).to.include.keys('rule', 'message', 'severity');
      expect((await svc.call('GET', `${invoices()}/numbering/next?year=${year}`)).body.invoice_number).to.equal(before);
    });

    it('gives 20 parallel creates 20 different numbers with no gap, and previews the next', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => svc.call('POST', invoices(), draft())));
      expect(results.map((r) => r.status)).to.deep.equal(Array(20).fill(201));
      const numbers = results.map((r) => Number(r.body.invoice_number)).sort((a, b) => a - b);
      expect(new Set(numbers).size).to.equal(20);
      expect(numbers[19]! - numbers[0]!).to.equal(19);
      const next = await svc.call('GET', `${invoices()}/numbering/next?year=${year}`);
      expect(next.body).to.deep.equal({ invoice_number: String(numbers[19]! + 1), series: 'invoice', year });
    });

    it('refuses a number already used in the organisation and tax year (409), also without case, also concurrently', async () => {
      expect((await svc.call('POST', invoices(), draft({ invoice_number: 'FA-77' }))).status).to.equal(201);
      const dup = await svc.call('POST', invoices(svc.demo.companies[1]!.id), draft({ invoice_number: 'fa-77', customer_id: undefined, buyer: { name: 'X', vat_id: '' } }));
      expect(dup.status).to.equal(409);
      expect(dup.body.detail.error).to.equal('invoice_number_conflict');
      const parallel = await Promise.all(Array.from({ length: 20 }, () => svc.call('POST', invoices(), draft({ invoice_number: 'FA-PAR-1' }))));
      expect(parallel.map((r) => r.status).sort()).to.deep.equal([201, ...Array(19).fill(409)]);
      expect((await svc.call('POST', invoices(), draft({ invoice_number: 'FA-77', issue_date: `${Number(year) - 1}-12-31` }))).status).to.equal(201);
    });

    it('never hands out a number a client already took: the series skips it', async () => {
      const next = (await svc.call('GET', `${invoices()}/numbering/next?year=${year}`)).body.invoice_number;
      expect((await svc.call('POST', invoices(), draft({ invoice_number: next }))).status).to.equal(201);
      const reserved = await svc.call('POST', invoices(), draft());
      expect(reserved.body.invoice_number).to.equal(String(Number(next) + 1));
    });

    it('creates through the unscoped route for the company whose VAT ID is the supplier’s', async () => {
      const c2 = svc.demo.companies[1]!;
      const created = await svc.call('POST', '/invoices', draft({ customer_id: undefined, supplier: { name: c2.name, vat_id: c2.vat_id, ico: c2.ico, dic: c2.dic, peppol_id: c2.peppol_id }, buyer: { name: 'Kupec', vat_id: '' }, supplier_iban: c2.iban }));
      expect(created.status).to.equal(201);
      expect(created.body.company_id).to.equal(c2.id);
      expect((await svc.call('POST', '/invoices', draft({ supplier: { name: 'Nikto', vat_id: 'SK2020000015' } }))).status).to.equal(404);
    });

    it('answers 404 for another organisation’s company and invoice, and for an unknown customer', async () => {
      const theirs = { 'x-api-key': svc.demo.second_organisation.api_key };
      expect((await svc.call('POST', invoices(), draft(), theirs)).status).to.equal(404);
      const mine = (await svc.call('GET', invoices())).body.items[0].id;
      expect((await svc.call('GET', `/invoices/${mine}`, undefined, theirs)).status).to.equal(404);
      expect((await svc.call('POST', invoices(), draft({ customer_id: '00000000-0000-4000-8000-000000000000' }))).body.detail.error).to.equal('customer_not_found');
    });
  });

  describe('replace (PUT)', () => {
    it('needs If-Match: 428 without, 412 when stale, 200 with the version; the number cannot change', async () => {
      const created = (await svc.call('POST', invoices(), draft())).body;
      const path = `${invoices()}/${created.id}`;
      const body = draft({ lines: [line({ quantity: '3' })] });
      expect((await svc.call('PUT', path, body)).status).to.equal(428);
      expect((await svc.call('PUT', path, body, { 'if-match': '"7"' })).status).to.equal(412);
      const replaced = await svc.call('PUT', path, body, { 'if-match': `"${created.version}"` });
      expect(replaced.status).to.equal(200);
      expect(replaced.body).to.include({ version: 1, total_net: '300.00', invoice_number: created.invoice_number });
      expect((await svc.call('PUT', path, { ...body, invoice_number: 'OTHER-1' }, { 'if-match': '"1"' })).body.detail.error).to.equal('invoice_number_immutable');
    });
  });

  describe('validate, UBL and history', () => {
    let invoice: { id: string; version: number; invoice_number: string };
    before(async () => {
      invoice = (await svc.call('POST', invoices(), draft({ lines: [line(), line({ vat_rate: '0', vat_category_code: 'Z', item_name: 'Nulová sadzba' })] }))).body;
    });

    it('validates business rules, XSD, CEN/Peppol and Slovak rules; a passing draft becomes validated', async () => {
      const result = await svc.call('POST', `${invoices()}/${invoice.id}/validate`);
      expect(result.status).to.equal(200);
      expect(result.body.xml_validation.errors, JSON.stringify(result.body.xml_validation.errors)).to.deep.equal([]);
      expect(result.body).to.include({ valid: true, status: 'validated' });
      expect(result.body.xml_validation).to.include({ release: 'peppol-bis-3.0.21', xsd_valid: true, peppol_valid: true, slovak_valid: true });
      expect(result.body.schemas_available).to.deep.equal({ xsd_invoice: true, schematron_peppol: true, schematron_slovak: true });
      expect((await svc.call('GET', `${invoices()}/${invoice.id}`)).body).to.include({ status: 'validated', version: 1 });
      expect((await svc.call('GET', `${invoices()}?status=validated`)).body.total).to.equal(1);
    });

    it('reports what the official rules refuse and leaves the invoice a draft', async () => {
      // a buyer without a Peppol address cannot receive a Peppol invoice (PEPPOL-EN16931-R010)
      const bare = (await svc.call('POST', invoices(), draft({ customer_id: undefined, buyer: { name: 'Kupec bez adresy', vat_id: 'SK2020000015' } }))).body;
      const result = await svc.call('POST', `${invoices()}/${bare.id}/validate`);
      expect(result.body).to.include({ valid: false, status: 'draft' });
      expect(result.body.xml_validation).to.include({ xsd_valid: true, peppol_valid: false });
      expect(result.body.xml_validation.errors.map((e: { rule: string }) => e.rule)).to.include('PEPPOL-EN16931-R010');
      expect((await svc.call('GET', `${invoices()}/${bare.id}`)).body.status).to.equal('draft');
    });

    it('serves the UBL it validated', async () => {
      const response = await fetch(`${svc.api}${invoices()}/${invoice.id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/xml/);
      const xml = await response.text();
      expect(xml).to.include(`<cbc:ID>${invoice.invoice_number}</cbc:ID>`).and.include('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
    });

    it('lists the invoice’s events for auditors and shows it as it stood at a time', async () => {
      const history = (await svc.call('GET', `${invoices()}/${invoice.id}/history`)).body;
      expect(history.events.map((e: { type: string }) => e.type)).to.deep.equal(['InvoiceCreated', 'InvoiceValidated']);
      expect(history.events[0].actor).to.include({ type: 'api_key' });
      const createdAt = history.events[0].recorded_at;
      const then = (await svc.call('GET', `${invoices()}/${invoice.id}/history?as_of=${encodeURIComponent(createdAt)}`)).body;
      expect(then.invoice).to.include({ status: 'draft', version: 0, invoice_number: invoice.invoice_number });
      const before = await svc.call('GET', `${invoices()}/${invoice.id}/history?as_of=2000-01-01T00:00:00Z`);
      expect(before.status).to.equal(404);
    });

  });

  describe('list', () => {
    it('pages, filters by q (number, supplier, buyer), status and dates, and sorts', async () => {
      const page = await svc.call('GET', `${invoices()}?page_size=5`);
      expect(page.body).to.include({ page: 1, page_size: 5 });
      expect(page.body.total).to.be.greaterThan(20);
      expect(Object.keys(page.body.items[0])).to.include.members(['id', 'invoice_number', 'status', 'total_gross', 'buyer_name']);
      const byBuyer = (await svc.call('GET', `${invoices()}?q=ODBERATEL KOS&page_size=100`)).body;
      expect(byBuyer.total).to.be.greaterThan(0);
      expect(byBuyer.items.every((i: { buyer_name: string }) => i.buyer_name === 'Odberateľ Košice s.r.o.')).to.equal(true);
      expect((await svc.call('GET', `${invoices()}?q=FA-77`)).body.total).to.equal(2);
      expect((await svc.call('GET', `${invoices()}?status=validated,queued`)).body.total).to.equal(1);
      expect((await svc.call('GET', `${invoices()}?from_date=${Number(year) - 1}-01-01&to_date=${Number(year) - 1}-12-31`)).body.total).to.equal(1);
      const sorted = (await svc.call('GET', `${invoices()}?sort=invoice_number&page_size=100`)).body.items.map((i: { invoice_number: string }) => i.invoice_number);
      expect(sorted).to.deep.equal([...sorted].sort());
      expect((await svc.call('GET', `${invoices()}?page_size=101`)).status).to.equal(422);
      expect((await svc.call('GET', `${invoices()}?status=bogus`)).status).to.equal(422);
      expect((await svc.call('GET', `${invoices()}?sort=-amount`)).status).to.equal(422);
    });
  });
});
