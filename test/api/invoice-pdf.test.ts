// GET …/invoices/{id}/pdf over real HTTP: every kind of document, read back with pdfjs-dist; the
// same version gives the same bytes; it is not plan-gated; access as for every read of an invoice.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { computeTotals } from '../../commands/invoices/totals.ts';
import { receivePeppolMessage } from '../../src/modules/delivery/inbound.ts';
import { BILLING_PROCESS_ID, documentTypeFor } from '../../src/modules/delivery/peppol/identifiers.ts';
import { wrapInSbdh } from '../../src/modules/delivery/peppol/sbdh.ts';
import { buildUbl } from '../../src/modules/invoices/ubl/index.ts';
import { readPdf, unwrapped } from '../pdf/extract.ts';
import { PANGRAM, invoiceContent } from '../pdf/samples.ts';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('GET …/invoices/{id}/pdf over HTTP', function () {
  this.timeout(180_000);
  let svc: TestService;
  let company: string;
  const year = String(new Date().getUTCFullYear());

  const pdf = (companyId: string, id: string, headers: Record<string, string> = {}, key?: string, query = '') =>
    fetch(`${svc.api}/companies/${companyId}/invoices/${id}/pdf${query}`, { headers: { 'x-api-key': key ?? svc.demo.api_key, ...headers } });
  const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());
  const create = async (body: Record<string, unknown>, companyId = company, key?: string) => {
    const created = await svc.call('POST', `/companies/${companyId}/invoices`, {
      issue_date: `${year}-03-05`, due_date: `${year}-03-19`, delivery_date: `${year}-03-02`,
      buyer: { name: PANGRAM, vat_id: 'SK2020000004', ico: '12345679', dic: '2020000004', city: 'Košice', postal_code: '040 01', street: 'Hlavná 1' },
      lines: [{ item_name: PANGRAM, quantity: '2', unit_code: 'HUR', unit_price: '33.37', vat_rate: '23' }],
      note: PANGRAM,
      ...body,
    }, key ? { 'x-api-key': key } : {});
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body as { id: string; version: number; invoice_number: string };
  };

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
  });
  after(async () => svc?.close());

  it('an invoice: application/pdf whose text (pdfjs-dist) carries the pangram exactly in the item, the buyer and the note, fonts embedded', async () => {
    const invoice = await create({});
    const res = await pdf(company, invoice.id);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/pdf');
    expect(res.headers.get('content-disposition')).to.match(/^inline; filename="Faktura_\d+\.pdf"; filename\*=UTF-8''Fakt%C3%BAra%20\d+\.pdf$/);
    const bytes = await bytesOf(res);
    expect(bytes.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    const read = await readPdf(bytes);
    expect(read.pages[0]!.items.map((i) => i.str)).to.include(PANGRAM); // the note, on one line
    expect(unwrapped(read.pages[0]!.text).split(PANGRAM)).to.have.length(4); // item, buyer and note
    expect(unwrapped(read.pages[0]!.text)).to.include(`Faktúra č. ${invoice.invoice_number}`);
    expect(read.fonts.length).to.be.greaterThan(0);
    expect(read.fonts.every((f) => f.embedded)).to.equal(true);
    expect(unwrapped(read.pages[0]!.text)).to.include('NÁVRH'); // a draft is not issued yet
  });

  it('one version gives one byte sequence; an edit (a new version) gives a new PDF and ETag; If-None-Match gives 304', async () => {
    const invoice = await create({});
    const first = await pdf(company, invoice.id);
    const again = await pdf(company, invoice.id);
    const etag = first.headers.get('etag')!;
    expect(etag).to.equal(`"pdf-${invoice.version}"`);
    expect(Buffer.compare(await bytesOf(first), await bytesOf(again))).to.equal(0);
    const unchanged = await pdf(company, invoice.id, { 'if-none-match': etag });
    expect(unchanged.status).to.equal(304);
    expect(await unchanged.text()).to.equal('');
    expect((await svc.call('POST', `/companies/${company}/invoices/${invoice.id}/mark-sent`, {})).status).to.equal(200);
    const sent = await pdf(company, invoice.id, { 'if-none-match': etag });
    expect(sent.status).to.equal(200);
    expect(sent.headers.get('etag')).not.to.equal(etag);
    expect(unwrapped((await readPdf(await bytesOf(sent))).pages[0]!.text)).not.to.include('NÁVRH');
  });

  it('a proforma is "Proforma faktúra", not a tax document', async () => {
    const proforma = await create({ invoice_type: '325' });
    const text = unwrapped((await readPdf(await bytesOf(await pdf(company, proforma.id)))).pages[0]!.text);
    expect(text).to.include('Proforma faktúra č.');
    expect(text).to.include('Nie je daňový doklad');
  });

  it('a credit note (rule 7: delivered at once, the caller hands the buyer the PDF): Dobropis, the credited invoice and its date, the reason', async () => {
    const invoice = await create({ buyer: { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000004', city: 'Košice' } });
    expect((await svc.call('POST', `/companies/${company}/invoices/${invoice.id}/mark-sent`, {})).status).to.equal(200);
    const { version } = (await svc.call('GET', `/companies/${company}/invoices/${invoice.id}`)).body as { version: number };
    const credit = await svc.call('POST', `/companies/${company}/invoices/${invoice.id}/credit-notes`, { reason: 'price_correction', amounts: [{ vat_rate: '23', gross: '12.30' }], note: PANGRAM }, { 'if-match': `"${version}"` });
    expect(credit.status, JSON.stringify(credit.body)).to.equal(201);
    const res = await pdf(company, credit.body.id);
    expect(res.headers.get('content-disposition')).to.include('Dobropis');
    const text = unwrapped((await readPdf(await bytesOf(res))).pages[0]!.text);
    for (const part of [`Dobropis č. ${credit.body.invoice_number}`, `Opravovaná faktúra č. ${invoice.invoice_number}`, `Zo dňa 05.03.${year}`, 'Dôvod Oprava ceny', 'Suma dobropisu', PANGRAM]) {
      expect(text).to.include(part);
    }
    expect(text).not.to.include('NÁVRH');
  });

  it('an inbound copy received over Peppol says so', async () => {
    const receiver = svc.demo.companies[1]!;
    const base = invoiceContent(3);
    const content = { ...base, invoice_number: `IN-${randomUUID().slice(0, 8)}`, supplier: { ...base.supplier, peppol_id: svc.demo.companies[0]!.peppol_id }, buyer: { ...base.buyer, peppol_id: receiver.peppol_id } };
    const documentTypeId = documentTypeFor('Invoice');
    const messageId = randomUUID();
    const envelope = wrapInSbdh({
      sender: svc.demo.companies[0]!.peppol_id, receiver: receiver.peppol_id, documentTypeId, processId: BILLING_PROCESS_ID,
      instanceId: messageId, createdAt: new Date(), countryC1: 'SK', document: buildUbl(content, computeTotals(content)),
    });
    const received = await receivePeppolMessage(svc.services, {
      message_id: messageId, sender_participant_id: svc.demo.companies[0]!.peppol_id, receiver_participant_id: receiver.peppol_id, document_type_id: documentTypeId,
      process_id: BILLING_PROCESS_ID, envelope, sending_ap: null,
    });
    if (!received.invoice_id) throw new Error(`the received document was refused (${received.response_code})`);
    const res = await pdf(receiver.id, received.invoice_id);
    expect(res.status).to.equal(200);
    const text = unwrapped((await readPdf(await bytesOf(res))).pages[0]!.text);
    expect(text).to.include(`Faktúra č. ${content.invoice_number}`);
    expect(text).to.include('Kópia dokladu prijatého cez Peppol');
    expect(text).to.include(PANGRAM);
  });

  it('is not plan-gated: a Solo Free organisation (no export) gets its document as a PDF, by key and as a user', async () => {
    const free = await createTestOrganisation(svc.services, 'Solo Free', ['admin']);
    const invoice = await create({}, free.companyId, free.apiKey);
    expect((await pdf(free.companyId, invoice.id, {}, free.apiKey)).status).to.equal(200);
    const login = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: free.users.admin!.email, password: free.users.admin!.password }) });
    const token = ((await login.json()) as { access_token: string }).access_token;
    expect((await pdf(free.companyId, invoice.id, { authorization: `Bearer ${token}` }, '')).status).to.equal(200);
  });

  it("is 404 for another organisation's invoice and through another company's path; 401 without credentials", async () => {
    const invoice = await create({});
    const other = svc.demo.second_organisation;
    const foreign = await pdf(other.company_id, invoice.id, {}, other.api_key);
    expect(foreign.status).to.equal(404);
    expect(((await foreign.json()) as { detail: { error: string } }).detail.error).to.equal('invoice_not_found');
    const viaOtherCompany = await pdf(svc.demo.companies[1]!.id, invoice.id);
    expect(viaOtherCompany.status).to.equal(404);
    expect((await pdf(company, randomUUID())).status).to.equal(404);
    expect((await fetch(`${svc.api}/companies/${company}/invoices/${invoice.id}/pdf`)).status).to.equal(401);
  });

  it('disposition=attachment asks to save it; the route is in the OpenAPI document', async () => {
    const invoice = await create({});
    expect((await pdf(company, invoice.id, {}, undefined, '?disposition=attachment')).headers.get('content-disposition')).to.match(/^attachment; /);
    const doc = (await (await fetch(`${svc.root}/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string; description: string }>> };
    const operation = doc.paths['/companies/{company_id}/invoices/{invoice_id}/pdf']?.['get'];
    expect(operation?.operationId).to.equal('getInvoicePdf');
    expect(operation?.description).to.include('Not plan-gated');
  });
});
