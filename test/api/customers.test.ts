import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';

describe('customers over HTTP', function () {
  this.timeout(60_000);
  let svc: TestService;
  let company: string;
  let otherCompany: string;
  const customers = (c = company) => `/companies/${c}/customers`;

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    otherCompany = svc.demo.companies[1]!.id;
  });
  after(async () => svc?.close());

  describe('create', () => {
    it('answers 201 with normalised fields, Location and ETag, and a GET sees it at once', async () => {
      const created = await svc.call('POST', customers(), {
        name: 'Košická Firma s.r.o.', vat_id: 'sk 2020273893', ico: '35 757 442', dic: '2020273893', city: 'Košice',
        postal_code: '04001', phone: '+421 55 123 4567', email: 'fakturacia@kosicka.sk', note: 'pays late',
      });
      expect(created.status).to.equal(201);
      expect(created.body).to.include({ vat_id: 'SK2020273893', ico: '35757442', postal_code: '040 01', phone: '+421551234567', country_code: 'SK', is_active: true, version: 0, company_id: company });
      expect(created.headers.get('etag')).to.equal('"0"');
      expect(created.headers.get('location')).to.equal(`/api/v1${customers()}/${created.body.id}`);
      const read = await svc.call('GET', `${customers()}/${created.body.id}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(created.body);
    });

    it('refuses a VAT ID already used in the organisation with 409, naming the holder', async () => {
      const first = await svc.call('POST', customers(), { name: 'Prvý', vat_id: 'SK2020000004' });
      expect(first.status).to.equal(201);
      for (const [path, vat] of [[customers(), 'SK2020000004'], [customers(otherCompany), 'sk2020 000004'], ['/customers', 'SK2020000004']] as const) {
        const dup = await svc.call('POST', path, { name: 'Druhý', vat_id: vat });
        expect(dup.status, path).to.equal(409);
        expect(dup.body.detail).to.include({ error: 'customer_vat_id_conflict', customer_id: first.body.id });
      }
    });

    it('lets exactly one of many concurrent creates with one VAT ID win', async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => svc.call('POST', customers(), { name: `Súbežný ${i}`, vat_id: 'SK2020000015' })),
      );
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409, 409, 409]);
      const listed = await svc.call('GET', `${customers()}?q=SK2020000015`);
      expect(listed.body.total).to.equal(1);
    });

    it('allows the same VAT ID in another organisation', async () => {
      const other = await svc.call('POST', `/companies/${svc.demo.second_organisation.company_id}/customers`, { name: 'Iný', vat_id: 'SK2020000004' }, { 'x-api-key': svc.demo.second_organisation.api_key });
      expect(other.status).to.equal(201);
    });

    it('accepts several customers without a VAT ID (not VAT-registered)', async () => {
      for (const name of ['Živnostník A', 'Živnostník B']) {
        expect((await svc.call('POST', customers(), { name, vat_id: '', ico: '31322832' })).status).to.equal(201);
      }
    });

    it('answers 422 in the request-body shape for schema and identifier errors, writing nothing', async () => {
      const before = (await svc.call('GET', customers())).body.total;
      const missing = await svc.call('POST', customers(), { vat_id: '' });
      expect(missing.status).to.equal(422);
      expect(missing.body.detail[0]).to.include({ msg: 'Field required', type: 'missing' });
      expect(missing.body.detail[0].loc).to.deep.equal(['body', 'name']);
      const long = await svc.call('POST', customers(), { name: 'x'.repeat(256), vat_id: '' });
      expect(long.body.detail[0]).to.include({ type: 'string_too_long' });
      const ids = await svc.call('POST', customers(), { name: 'Zlé IČO', vat_id: 'SK2020273894', ico: '35757443', dic: '35757442' });
      expect(ids.status).to.equal(422);
      expect(ids.body.detail.map((d: { loc: string[] }) => d.loc[1])).to.deep.equal(['vat_id', 'ico', 'dic']);
      expect(ids.body.detail[0]).to.include({ type: 'value_error', input: 'SK2020273894' });
      expect((await svc.call('GET', customers())).body.total).to.equal(before);
    });
  });

  describe('list and search', () => {
    before(async () => {
      for (const [name, vat, city] of [['Žilinská Pekáreň a.s.', 'SK2020000026', 'Žilina'], ['Alfa s.r.o.', 'SK2020000037', 'Nitra'], ['Bratislavská Banka', 'SK2020000048', 'Bratislava']]) {
        await svc.call('POST', customers(), { name, vat_id: vat, city });
      }
      await svc.call('POST', customers(otherCompany), { name: 'Len pre druhú firmu', vat_id: 'SK2020000059' });
    });

    it('pages with the envelope and sorts by name by default, accent-insensitively', async () => {
      const page1 = await svc.call('GET', `${customers()}?page_size=2`);
      expect(page1.body).to.include({ page: 1, page_size: 2 });
      expect(page1.body.items).to.have.length(2);
      const all = await svc.call('GET', `${customers()}?page_size=100`);
      expect(all.body.total).to.equal(page1.body.total);
      const names = all.body.items.map((i: { name: string }) => i.name);
      expect(names[0]).to.equal('Alfa s.r.o.');
      expect(names.indexOf('Žilinská Pekáreň a.s.')).to.be.greaterThan(names.indexOf('Bratislavská Banka'));
      const page2 = await svc.call('GET', `${customers()}?page_size=2&page=2`);
      expect(page2.body.items[0].id).to.equal(all.body.items[2].id);
    });

    it('sorts descending and by several columns', async () => {
      const desc = await svc.call('GET', `${customers()}?sort=-name&page_size=100`);
      expect(desc.body.items[0].name).to.equal('Živnostník B');
      const byVat = await svc.call('GET', `${customers()}?sort=vat_id,-created_at&page_size=100`);
      expect(byVat.status).to.equal(200);
    });

    it('filters with q over name (ignoring case and diacritics) and VAT ID', async () => {
      expect((await svc.call('GET', `${customers()}?q=ZILINSKA`)).body.items.map((i: { name: string }) => i.name)).to.deep.equal(['Žilinská Pekáreň a.s.']);
      expect((await svc.call('GET', `${customers()}?q=2020000037`)).body.items[0].name).to.equal('Alfa s.r.o.');
      expect((await svc.call('GET', `${customers()}?q=100%25`)).body.total).to.equal(0); // LIKE wildcards are literal
    });

    it('shows a company its own and organisation-wide customers, not another company’s', async () => {
      expect((await svc.call('GET', `${customers()}?q=Len pre`)).body.total).to.equal(0);
      expect((await svc.call('GET', `${customers(otherCompany)}?q=Len pre`)).body.total).to.equal(1);
    });

    it('refuses page_size above 100, q above 200 characters and an unknown sort with 422', async () => {
      const big = await svc.call('GET', `${customers()}?page_size=101`);
      expect(big.status).to.equal(422);
      expect(big.body.detail[0]).to.include({ type: 'less_than_equal' });
      expect(big.body.detail[0].loc).to.deep.equal(['query', 'page_size']);
      expect((await svc.call('GET', `${customers()}?q=${'a'.repeat(201)}`)).status).to.equal(422);
      expect((await svc.call('GET', `${customers()}?sort=email`)).status).to.equal(422);
      expect((await svc.call('GET', `${customers()}?page=0`)).status).to.equal(422);
    });

    it('searches by IČO, VAT ID or name fragment, slim rows, at most 10', async () => {
      const byIco = await svc.call('GET', `${customers()}/search?q=35757442`);
      expect(byIco.body.map((m: { name: string }) => m.name)).to.deep.equal(['Košická Firma s.r.o.']);
      expect(Object.keys(byIco.body[0]).sort()).to.deep.equal(['city', 'ico', 'id', 'name', 'peppol_id', 'vat_id']);
      expect((await svc.call('GET', `${customers()}/search?q=pekar`)).body).to.have.length(1);
      expect((await svc.call('GET', `${customers()}/search?q=s`)).body.length).to.be.at.most(10);
      expect((await svc.call('GET', `${customers()}/search`)).status).to.equal(422);
    });
  });

  describe('archive', () => {
    it('archives (is_active false), archiving again changes nothing, search no longer finds it', async () => {
      const created = await svc.call('POST', customers(), { name: 'Na archiváciu s.r.o.', vat_id: 'SK2020000070' });
      const archived = await svc.call('POST', `${customers()}/${created.body.id}/archive`);
      expect(archived.status).to.equal(200);
      expect(archived.body).to.include({ is_active: false, version: 1 });
      const again = await svc.call('POST', `${customers()}/${created.body.id}/archive`);
      expect(again.body).to.include({ is_active: false, version: 1 });
      const listed = await svc.call('GET', `${customers()}?q=archiv`);
      expect(listed.body.items[0].is_active).to.equal(false);
      expect((await svc.call('GET', `${customers()}/search?q=archiv`)).body).to.deep.equal([]);
    });

    it('answers 412 to a stale If-Match and 404 for an unknown customer', async () => {
      const created = await svc.call('POST', customers(), { name: 'Verzia s.r.o.', vat_id: '' });
      const stale = await svc.call('POST', `${customers()}/${created.body.id}/archive`, undefined, { 'if-match': '"5"' });
      expect(stale.status).to.equal(412);
      expect(stale.body.detail).to.include({ error: 'version_mismatch', current_version: 0 });
      const fresh = await svc.call('POST', `${customers()}/${created.body.id}/archive`, undefined, { 'if-match': '"0"' });
      expect(fresh.status).to.equal(200);
      const unknown = await svc.call('POST', `${customers()}/00000000-0000-4000-8000-000000000000/archive`, undefined, { 'if-match': '"0"' });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.detail.error).to.equal('customer_not_found');
    });
  });

  it('documents every customer route in /openapi.json', async () => {
    const doc = await (await fetch(`${svc.root}/openapi.json`)).json();
    expect(doc.openapi).to.match(/^3\.1/);
    expect(doc.servers[0].url).to.equal(`${svc.root}/api/v1`);
    for (const path of ['/companies/{company_id}/customers', '/customers', '/companies/{company_id}/customers/search',
      '/companies/{company_id}/customers/{customer_id}', '/companies/{company_id}/customers/{customer_id}/archive']) {
      expect(doc.paths, path).to.have.property(path);
    }
    expect(doc.paths['/companies/{company_id}/customers'].post.responses).to.include.keys('201', '409', '422');
  });

  describe('identity and tenancy', () => {
    it('answers 401 without a key and with an unknown one; accepts Bearer svc_', async () => {
      expect((await svc.call('GET', customers(), undefined, { 'x-api-key': '' })).status).to.equal(401);
      const bad = await svc.call('GET', customers(), undefined, { 'x-api-key': 'svc_unknown' });
      expect(bad.status).to.equal(401);
      expect(bad.body.detail.error).to.equal('invalid_api_key');
      expect((await svc.call('GET', customers(), undefined, { 'x-api-key': '', authorization: `Bearer ${svc.demo.api_key}` })).status).to.equal(200);
    });

    it('hides another organisation’s company and customers (404)', async () => {
      const theirs = { 'x-api-key': svc.demo.second_organisation.api_key };
      expect((await svc.call('GET', customers(), undefined, theirs)).status).to.equal(404);
      const mine = await svc.call('POST', customers(), { name: 'Môj', vat_id: '' });
      const peek = await svc.call('GET', `/companies/${svc.demo.second_organisation.company_id}/customers/${mine.body.id}`, undefined, theirs);
      expect(peek.status).to.equal(404);
      expect(peek.body.detail.error).to.equal('customer_not_found');
    });
  });
});
