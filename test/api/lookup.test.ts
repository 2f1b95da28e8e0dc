import { expect } from 'chai';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Issue 19 part 2 over HTTP: GET /lookup/companies/{ico} and ?q= against the sandbox register (its
 * fixtures and this service's own companies), with its sources switched off to see partial answers.
 * Each test looks up IČOs no other test does: answers are cached.
 */
describe('company lookup and search over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;

  before(async () => {
    svc = await startTestService();
  });
  after(async () => svc?.close());
  afterEach(() => (['rpo', 'registeruz', 'vies'] as const).forEach((s) => svc.registry.setDown(s, false)));

  const lookUp = (ico: string, headers: Record<string, string> = {}) => svc.call('GET', `/lookup/companies/${ico}`, undefined, headers);
  const search = (q: string, extra = '') => svc.call('GET', `/lookup/companies?q=${encodeURIComponent(q)}${extra}`);

  it('a VAT-registered company: the current name and seat, the DIČ, IČ DPH, and all three sources', async () => {
    const answer = await lookUp('50100017');
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.equal({
      ico: '50100017', name: 'Kŕdeľ Šťastných Ďatľov s.r.o.', street: 'Hlavná 1234/12', city: 'Košice', postal_code: '040 01', country_code: 'SK',
      dic: '2023456710', ic_dph: 'SK2023456710', is_vat_registered: true, legal_form_code: '112', sources: ['rpo', 'registeruz', 'vies'],
    });
  });

  it('a company that is not VAT-registered: is_vat_registered false and no ic_dph, as VIES says', async () => {
    const answer = await lookUp('50100050');
    expect(answer.body).to.include({ name: 'Ondrej Kováč – Čalúnnictvo', dic: '1087654321', ic_dph: null, is_vat_registered: false, legal_form_code: '101' });
    expect(answer.body.sources).to.deep.equal(['rpo', 'registeruz', 'vies']);
  });

  it('a company RegisterUZ does not know yet: no DIČ, VIES not asked, unknown values null', async () => {
    const answer = await lookUp('50100068');
    expect(answer.body).to.include({ name: 'Nová Firma Bez Závierky s.r.o.', dic: null, ic_dph: null, is_vat_registered: false });
    expect(answer.body.sources).to.deep.equal(['rpo']);
  });

  it('finds the demo companies (this service\'s own, in the sandbox)', async () => {
    const demo = svc.demo.companies[1]!;
    const answer = await lookUp(demo.ico);
    expect(answer.status).to.equal(200);
    expect(answer.body).to.include({ ico: demo.ico, name: demo.name, dic: demo.dic, ic_dph: demo.vat_id, is_vat_registered: true, street: null, city: null, country_code: 'SK' });
  });

  it('422 in the request-error shape for a wrong check digit or not 8 digits; the registers are not asked', async () => {
    const before = { ...svc.registry.calls };
    const wrong = await lookUp('50100018');
    expect(wrong.status).to.equal(422);
    expect(wrong.body).to.deep.equal({ detail: [{ loc: ['path', 'ico'], msg: 'IČO check digit does not match', type: 'value_error.ico', input: '50100018' }], request_id: wrong.headers.get('x-request-id') });
    for (const bad of ['5010001', '501000170', 'abcdefgh']) {
      const answer = await lookUp(bad);
      expect([answer.status, answer.body.detail[0].loc], bad).to.deep.equal([422, ['path', 'ico']]);
    }
    expect(svc.registry.calls).to.deep.equal(before);
  });

  it('404 company_not_found for a valid IČO nobody knows', async () => {
    const answer = await lookUp('35757442');
    expect(answer.status).to.equal(404);
    expect(answer.body.detail.error).to.equal('company_not_found');
  });

  it('VIES down: a partial answer whose sources lack vies, and the VAT status is not claimed', async () => {
    svc.registry.setDown('vies', true);
    const answer = await lookUp('50100025');
    expect(answer.status).to.equal(200);
    expect(answer.body).to.include({ name: 'Stavebniny Košice a.s.', dic: '2023456721', is_vat_registered: false, ic_dph: null });
    expect(answer.body.sources).to.deep.equal(['rpo', 'registeruz']);
  });

  it('RPO down: RegisterUZ\'s name and seat, then VIES', async () => {
    svc.registry.setDown('rpo', true);
    const answer = await lookUp('50100033');
    expect(answer.body).to.include({ name: 'Mliekáreň Ľubovňa, družstvo', city: 'Stará Ľubovňa', is_vat_registered: true, ic_dph: 'SK2023456732' });
    expect(answer.body.sources).to.deep.equal(['registeruz', 'vies']);
  });

  it('every register down: 502 company_registry_unavailable naming them, not cached: the next ask, once they are back, answers', async () => {
    svc.registry.setDown('rpo', true);
    svc.registry.setDown('registeruz', true);
    const down = await lookUp('50100076');
    expect(down.status).to.equal(502);
    expect(down.body.detail).to.include({ error: 'company_registry_unavailable' });
    expect(down.body.detail.unavailable).to.deep.equal(['rpo', 'registeruz']);
    svc.registry.setDown('rpo', false);
    svc.registry.setDown('registeruz', false);
    expect((await lookUp('50100076')).body.sources).to.deep.equal(['rpo', 'registeruz', 'vies']);
  });

  it('a repeated lookup is served from the cache: no register is asked again', async () => {
    await lookUp('50100041');
    const before = { ...svc.registry.calls };
    const again = await lookUp('50100041');
    expect(again.body).to.include({ name: 'Zaniknutá Účtovná Kancelária s.r.o.' });
    expect(svc.registry.calls).to.deep.equal(before);
  });

  it('search ignores diacritics and case: "kosice" finds "Stavebniny Košice a.s."', async () => {
    const answer = await search('kosice');
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.equal({
      query: 'kosice',
      results: [{ ico: '50100025', name: 'Stavebniny Košice a.s.', street: 'Južná trieda 8', city: 'Košice', terminated: false }],
    });
    expect((await search('KRDEL statnych')).body.results).to.deep.equal([]);
    expect((await search('  KRDEL   stastnych ')).body).to.deep.include({ query: 'KRDEL stastnych' });
    expect((await search('KRDEL stastnych')).body.results.map((r: { ico: string }) => r.ico)).to.deep.equal(['50100017']);
  });

  it('search lists companies in business first, terminated ones after, marked', async () => {
    const answer = await search('uctovna kancelaria');
    expect(answer.body.results.map((r: { ico: string; terminated: boolean }) => [r.ico, r.terminated])).to.deep.equal([['50100076', false], ['50100041', true]]);
    expect((await search('uctovna kancelaria', '&limit=1')).body.results).to.have.length(1);
  });

  it('a q that is an IČO finds that company; the demo companies are found by name', async () => {
    expect((await search('50 100 017')).body.results.map((r: { name: string }) => r.name)).to.deep.equal(['Kŕdeľ Šťastných Ďatľov s.r.o.']);
    const demo = await search('demo dodavatel');
    expect(demo.body.results.map((r: { ico: string }) => r.ico)).to.include(svc.demo.companies[0]!.ico);
  });

  it('q: at least 3 letters or digits and at most 200 characters, else 422 at query.q', async () => {
    for (const q of ['ab', ' . ', 'š'.repeat(201)]) {
      const answer = await search(q);
      expect([answer.status, answer.body.detail[0].loc], q).to.deep.equal([422, ['query', 'q']]);
    }
    const missing = await svc.call('GET', '/lookup/companies');
    expect([missing.status, missing.body.detail[0].loc]).to.deep.equal([422, ['query', 'q']]);
    expect((await search('kosice', '&limit=51')).status).to.equal(422);
  });

  it('search with RPO down: 502 company_registry_unavailable', async () => {
    svc.registry.setDown('rpo', true);
    const answer = await search('mliekaren');
    expect([answer.status, answer.body.detail.error]).to.deep.equal([502, 'company_registry_unavailable']);
  });

  it('any authenticated caller may look up: a signed-in accountant too; no credentials is 401', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business', ['accountant']);
    const login = await fetch(`${svc.api}/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: org.users.accountant!.email, password: org.users.accountant!.password }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const asAccountant = await fetch(`${svc.api}/lookup/companies/50100017`, { headers: { authorization: `Bearer ${token}` } });
    expect(asAccountant.status).to.equal(200);
    const anonymous = await fetch(`${svc.api}/lookup/companies?q=kosice`);
    expect(anonymous.status).to.equal(401);
  });
});

describe('company lookup is rate-limited like every route', function () {
  this.timeout(120_000);
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ rateLimit: true });
  });
  after(async () => svc?.close());

  it('past the plan\'s burst (Team Business: 200) the caller gets 429 rate_limit_exceeded, cached answers included', async () => {
    // until the bucket is empty: on a busy machine the bucket refills while the burst is spent,
    // so the first 429 may come some requests after the 200th (never before it)
    const statuses: number[] = [];
    let refused = await svc.call('GET', '/lookup/companies?q=kosice');
    while (refused.status !== 429 && statuses.length < 5_000) {
      statuses.push(refused.status);
      refused = await svc.call('GET', statuses.length % 2 ? '/lookup/companies/50100017' : '/lookup/companies?q=kosice');
    }
    expect(statuses.length, 'answered before the first 429').to.be.at.least(195);
    expect(statuses.every((s) => s === 200)).to.equal(true);
    expect([refused.status, refused.body.error]).to.deep.equal([429, 'rate_limit_exceeded']);
  });
});
