// A company's profile through HTTP (issue 40): GET and PATCH /companies/{id} with If-Match, bad
// input as 422 with loc; then what invoices made afterwards carry: the seller's address, register
// entry, contact and BIC in the UBL, both addresses and the register entry in the PDF, and the PAY
// by square code, served and drawn, decoding back to the invoice's payment.
import { decode } from 'bysquare/pay';
import { expect } from 'chai';
import { readPdf, unwrapped } from '../pdf/extract.ts';
import { readQr, renderPage } from '../pdf/raster.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { needArtifacts } from '../validation/support/paths.ts';

const ENTRY = 'zapísaná v Obchodnom registri Okresného súdu Bratislava I, oddiel Sro, vložka č. 98765/B';

describe('company profile over HTTP, and what invoices take from it', function () {
  this.timeout(180_000);
  before(needArtifacts);
  let svc: TestService;
  let company = '';
  let invoices = '';
  const year = String(new Date().getUTCFullYear());
  const buyer = { name: 'Odberateľ Košice s.r.o.', vat_id: 'SK2020000004', dic: '2020000004', ico: '35757442', peppol_id: '9950:sk2020000004svctest', street: 'Mlynská 2', city: 'Košice', postal_code: '040 01' };
  const draft = (over: Record<string, unknown> = {}) => ({
    invoice_number: `${year}-7${Math.floor(Math.random() * 1e5)}`, issue_date: `${year}-03-15`, due_date: `${year}-03-29`, buyer,
    lines: [{ item_name: 'Konzultácia', quantity: '3', unit_price: '123.45', vat_rate: '23' }], ...over,
  });
  const bytes = async (path: string) => new Uint8Array(await (await fetch(`${svc.api}${path}`, { headers: { 'x-api-key': svc.demo.api_key } })).arrayBuffer());
  const patch = (body: unknown, version?: number) => svc.call('PATCH', company, body, version === undefined ? {} : { 'if-match': `"${version}"` });

  before(async () => {
    svc = await startTestService();
    company = `/companies/${svc.demo.companies[0]!.id}`;
    invoices = `${company}/invoices`;
  });
  after(async () => svc?.close());

  it('GET shows the demo company with its whole profile, and its version in the ETag', async () => {
    const got = await svc.call('GET', company);
    expect(got.status).to.equal(200);
    expect(got.body).to.include({ id: svc.demo.companies[0]!.id, vat_id: svc.demo.companies[0]!.vat_id, street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01', country_code: 'SK' });
    expect(got.body.register_entry).to.match(/^zapísaná v Obchodnom registri/);
    expect(got.body.bic).to.match(/^[A-Z]{4}SK/);
    expect(got.headers.get('etag')).to.equal(`"${got.body.version}"`);
    expect((await svc.call('GET', `/companies/${svc.demo.second_organisation.company_id}`)).status).to.equal(404);
  });

  it('PATCH needs If-Match (428), refuses a stale one (412) and bad values with loc (422), then changes only what it is sent', async () => {
    const { version } = (await svc.call('GET', company)).body;
    expect((await patch({ city: 'Trnava' })).body.detail.error).to.equal('if_match_required');
    expect((await patch({ city: 'Trnava' }, version + 5)).status).to.equal(412);
    const bad = await patch({ postal_code: '8110', bic: 'GIBACZPX', contact_email: 'nikto', unknown: 1 }, version);
    expect(bad.status).to.equal(422);
    const refused = await patch({ postal_code: '8110', bic: 'GIBACZPX', contact_email: 'nikto' }, version);
    expect(refused.status).to.equal(422);
    expect(refused.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).to.have.members(['body.postal_code', 'body.bic', 'body.contact_email']);

    const changed = await patch({ additional_street: ' Budova A ', register_entry: ENTRY, contact_name: 'Eva Malá', contact_phone: '+421 905 123 456' }, version);
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.include({ additional_street: 'Budova A', register_entry: ENTRY, street: 'Hlavná 1', version: version + 1 });
    expect(changed.headers.get('etag')).to.equal(`"${version + 1}"`);
    expect((await svc.call('GET', company)).body).to.deep.equal(changed.body);
    // the same values again change nothing
    expect((await patch({ contact_name: 'Eva Malá' }, version + 1)).body.version).to.equal(version + 1);
  });

  it('an invoice made afterwards carries the profile in its UBL: AdditionalStreetName, CompanyLegalForm, Contact, the BIC', async () => {
    const profile = (await svc.call('GET', company)).body;
    const created = await svc.call('POST', invoices, draft());
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const ubl = new TextDecoder().decode(await bytes(`${invoices}/${created.body.id}/ubl`));
    const seller = ubl.slice(ubl.indexOf('<cac:AccountingSupplierParty>'), ubl.indexOf('</cac:AccountingSupplierParty>'));
    expect(seller).to.include('<cbc:AdditionalStreetName>Budova A</cbc:AdditionalStreetName>').and.include(`<cbc:CompanyLegalForm>${ENTRY}</cbc:CompanyLegalForm>`)
      .and.include('<cbc:Name>Eva Malá</cbc:Name>').and.include('<cbc:Telephone>+421 905 123 456</cbc:Telephone>');
    expect(ubl).to.match(new RegExp(`<cac:FinancialInstitutionBranch>\\s*<cbc:ID>${profile.bic}</cbc:ID>`));
    const validated = await svc.call('POST', `${invoices}/${created.body.id}/validate`);
    expect(validated.body.xml_validation, JSON.stringify(validated.body.xml_validation)).to.include({ xsd_valid: true, peppol_valid: true, slovak_valid: true });
  });

  it('the PDF shows both addresses, the register entry, and a QR code that decodes to the invoice\'s payment', async () => {
    const profile = (await svc.call('GET', company)).body;
    const created = (await svc.call('POST', invoices, draft())).body;
    const pdf = await bytes(`${invoices}/${created.id}/pdf`);
    const text = unwrapped((await readPdf(pdf)).pages.map((p) => p.text).join('\n'));
    for (const part of ['Hlavná 1', 'Budova A', '811 01 Bratislava', 'Mlynská 2', '040 01 Košice', 'Zapísaná v Obchodnom registri Okresného súdu Bratislava I, oddiel Sro, vložka č. 98765/B', 'PAY by square']) {
      expect(text).to.include(part);
    }
    const qr = readQr(await renderPage(pdf, 1, 3));
    expect(qr, 'a QR code on the first page').to.not.equal(null);
    const [payment] = decode(qr!).payments;
    expect(payment).to.include({ amount: Number(created.amount_due), currencyCode: 'EUR', variableSymbol: created.invoice_number.replace(/\D/g, ''), paymentDueDate: created.due_date.replace(/-/g, '') });
    expect(payment!.bankAccounts[0]).to.deep.equal({ iban: profile.iban, bic: profile.bic });

    // the route serves the same code
    const served = await svc.call('GET', `${invoices}/${created.id}/pay-by-square`);
    expect(served.status).to.equal(200);
    expect(served.body.code).to.equal(qr);
    expect(served.body.payment).to.include({ amount: created.amount_due, iban: profile.iban, variable_symbol: created.invoice_number.replace(/\D/g, ''), due_date: created.due_date });
  });

  it('no account or nothing due: 409 with its code, and the PDF says so instead of a code', async () => {
    const byCard = (await svc.call('POST', invoices, draft({ payment_means_code: '48' }))).body;
    const refused = await svc.call('GET', `${invoices}/${byCard.id}/pay-by-square`);
    expect(refused.status).to.equal(409);
    expect(refused.body.detail.error).to.equal('pay_by_square_no_account');
    const pdf = await bytes(`${invoices}/${byCard.id}/pdf`);
    expect(unwrapped((await readPdf(pdf)).pages[0]!.text)).to.include('QR platba (PAY by square): úhrada kartou');
    expect(readQr(await renderPage(pdf, 1, 3))).to.equal(null);

    const free = (await svc.call('POST', invoices, draft({ lines: [{ item_name: 'Zdarma', quantity: '1', unit_price: '0', vat_rate: '23' }] }))).body;
    expect((await svc.call('GET', `${invoices}/${free.id}/pay-by-square`)).body.detail.error).to.equal('pay_by_square_nothing_due');
  });

  it('a company without an address: its Slovak invoices warn of §74 (SK-R-002..004) on create and validate', async () => {
    const { version } = (await svc.call('GET', company)).body;
    expect((await patch({ street: '', additional_street: '', city: '', postal_code: '' }, version)).status).to.equal(200);
    const created = await svc.call('POST', invoices, draft());
    expect(created.status).to.equal(201);
    const rules = (found: { rule: string; message: string }[]) => found.filter((w) => /^SK-R-00[2-4]$/.test(w.rule));
    expect(rules(created.body.warnings).map((w) => w.rule)).to.deep.equal(['SK-R-002', 'SK-R-003', 'SK-R-004']);
    expect(rules(created.body.warnings)[0]!.message).to.include('§74');
    const validated = await svc.call('POST', `${invoices}/${created.body.id}/validate`);
    expect(rules(validated.body.warnings).map((w) => w.rule)).to.deep.equal(['SK-R-002', 'SK-R-003', 'SK-R-004']);
    // put the seat back for whoever reads the demo next
    expect((await patch({ street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01' }, version + 1)).status).to.equal(200);
  });
});
