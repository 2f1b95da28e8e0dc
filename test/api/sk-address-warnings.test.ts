// Peppol BIS 3.0.22's SK-R-002..007 through HTTP: a Slovak domestic invoice missing a part of the seller's
// or the buyer's address is created (201) with the warnings, validates with them as warnings (not errors),
// and the UBL carries every part that is known: the company's own address included (the demo companies
// are registered with one).
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';
import { needArtifacts } from '../validation/support/paths.ts';

type Finding = { rule: string; message: string; severity: string; field?: string };
const skAddress = (findings: Finding[]) => findings.filter((f) => /^SK-R-00[2-7]$/.test(f.rule));

describe('Slovak address warnings (SK-R-002 to SK-R-007) over HTTP', function () {
  this.timeout(120_000);
  before(needArtifacts);
  let svc: TestService;
  let invoices = '';
  const year = String(new Date().getUTCFullYear());
  const buyer = { name: 'Odberateľ Košice s.r.o.', vat_id: 'SK2020000004', dic: '2020000004', ico: '35757442', peppol_id: '9950:sk2020000004svctest' };
  const draft = (over: Record<string, unknown>) => ({
    issue_date: `${year}-03-15`, due_date: `${year}-03-29`, lines: [{ item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23' }], ...over,
  });

  before(async () => {
    svc = await startTestService();
    invoices = `/companies/${svc.demo.companies[0]!.id}/invoices`;
  });
  after(async () => svc?.close());

  it('create answers 201 with a warning per missing part; validate lists them as warnings and the invoice validates', async () => {
    // another Slovak seller named in the supplier block, without its address: the seller's three warn too
    const seller = { name: 'Iný Dodávateľ s.r.o.', vat_id: 'SK2020000015', dic: '2020000015', peppol_id: '9950:sk2020000015svctest' };
    const created = await svc.call('POST', invoices, draft({ supplier: seller, buyer: { ...buyer, city: 'Košice' } }));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(skAddress(created.body.warnings).map((w) => `${w.rule} ${w.field}`)).to.deep.equal([
      'SK-R-002 supplier.street', 'SK-R-003 supplier.city', 'SK-R-004 supplier.postal_code', 'SK-R-005 buyer.street', 'SK-R-007 buyer.postal_code',
    ]);
    expect(created.body.warnings[0]).to.include.keys('rule', 'message');
    expect((await svc.call('GET', `${invoices}/${created.body.id}`)).body.warnings).to.deep.equal(created.body.warnings);

    const result = await svc.call('POST', `${invoices}/${created.body.id}/validate`);
    expect(result.status).to.equal(200);
    expect(skAddress(result.body.warnings).map((w) => w.rule)).to.deep.equal(['SK-R-002', 'SK-R-003', 'SK-R-004', 'SK-R-005', 'SK-R-007']);
    expect(skAddress(result.body.errors)).to.deep.equal([]);
    expect(result.body).to.include({ valid: true, status: 'validated' });
  });

  it('the company\'s own address is the seller\'s: no SK-R-002..004, by default or in a supplier block of the company without one, and the UBL carries it', async () => {
    const company = { ...svc.demo.companies[0]!, street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01' }; // as the demo registers it
    const ownBlock = { name: company.name, vat_id: company.vat_id, ico: company.ico, dic: company.dic, peppol_id: company.peppol_id };
    for (const over of [{}, { supplier: ownBlock }]) {
      const created = await svc.call('POST', invoices, draft({ ...over, buyer: { ...buyer, street: 'Mlynská 2', city: 'Košice', postal_code: '040 01' } }));
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.supplier).to.include({ street: company.street, city: company.city, postal_code: company.postal_code });
      expect(skAddress(created.body.warnings)).to.deep.equal([]);
      const ubl = await (await fetch(`${svc.api}${invoices}/${created.body.id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } })).text();
      const seller = ubl.slice(ubl.indexOf('<cac:AccountingSupplierParty>'), ubl.indexOf('</cac:AccountingSupplierParty>'));
      expect(seller).to.include(`<cbc:StreetName>${company.street}</cbc:StreetName>`).and.include(`<cbc:CityName>${company.city}</cbc:CityName>`)
        .and.include(`<cbc:PostalZone>${company.postal_code}</cbc:PostalZone>`);
    }
  });

  it('no warning when both addresses are whole, and the UBL carries them', async () => {
    const whole = { ...buyer, street: 'Mlynská 2', city: 'Košice', postal_code: '040 01' };
    const company = (await svc.call('POST', invoices, draft({ buyer: whole }))).body.supplier as Record<string, unknown>;
    const supplier = { ...company, street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01' };
    const created = await svc.call('POST', invoices, draft({ supplier, buyer: whole }));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(skAddress(created.body.warnings)).to.deep.equal([]);
    const ubl = await (await fetch(`${svc.api}${invoices}/${created.body.id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } })).text();
    for (const value of [supplier.street, supplier.city, supplier.postal_code, 'Mlynská 2', 'Košice', '040 01']) {
      expect(ubl).to.include(value);
    }
    expect(ubl).to.match(/<cbc:StreetName>Mlynská 2<\/cbc:StreetName>\s*<cbc:CityName>Košice<\/cbc:CityName>\s*<cbc:PostalZone>040 01<\/cbc:PostalZone>/);
  });

  it('no warning on an invoice to a foreign buyer', async () => {
    const foreign = { name: 'Kupec s.r.o.', vat_id: 'CZ12345679', country_code: 'CZ', peppol_id: '9929:CZ12345679' };
    const created = await svc.call('POST', invoices, draft({ buyer: foreign }));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(skAddress(created.body.warnings)).to.deep.equal([]);
  });
});
