import { expect } from 'chai';
import { dicProblem, icDphProblem, icoProblem, peppolIdProblem, sandboxPeppolId, skIbanProblem } from '../../commands/shared/slovak-identifiers.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('demo bootstrap', function () {
  this.timeout(60_000);
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => svc?.close());

  it('has exactly the contract shape', () => {
    const d = svc.demo;
    expect(Object.keys(d).sort()).to.deep.equal(
      ['admin', 'api_key', 'base_url', 'companies', 'organisation_id', 'plan', 'sapi_url', 'second_organisation', 'workspace_id'].sort(),
    );
    expect(d.base_url).to.equal(svc.api);
    expect(d.sapi_url).to.equal(`${svc.root}/sapi`);
    expect(d.plan).to.equal('Team Business');
    expect(d.api_key).to.match(/^svc_/);
    expect(Object.keys(d.admin).sort()).to.deep.equal(['email', 'password']);
    expect(d.admin.password).to.match(/[A-Z]/).and.match(/[a-z]/).and.match(/\d/).and.match(/[^A-Za-z0-9]/);
    expect(d.companies).to.have.length(2);
    expect(Object.keys(d.second_organisation).sort()).to.deep.equal(['api_key', 'company_id', 'organisation_id']);
  });

  it('gives both sandbox companies valid Slovak identifiers, a sandbox participant ID and SAPI-SK credentials', () => {
    for (const c of svc.demo.companies) {
      expect(Object.keys(c).sort()).to.deep.equal(['dic', 'iban', 'ico', 'id', 'name', 'peppol_id', 'sapi', 'vat_id']);
      expect([icoProblem(c.ico), dicProblem(c.dic), icDphProblem(c.vat_id), skIbanProblem(c.iban), peppolIdProblem(c.peppol_id)]).to.deep.equal([null, null, null, null, null]);
      expect(c.vat_id).to.equal(`SK${c.dic}`);
      expect(c.peppol_id).to.equal(sandboxPeppolId(c.vat_id)).and.match(/^9950:sk\d{10}svctest$/);
      expect(c.sapi.participant_id).to.equal(c.peppol_id);
      expect(c.sapi.client_id).to.be.a('string').and.not.empty;
      expect(c.sapi.client_secret).to.be.a('string').and.have.length.greaterThan(20);
    }
    expect(svc.demo.companies[0]!.vat_id).to.not.equal(svc.demo.companies[1]!.vat_id);
  });

  it('hands out keys that work for their own organisation only', async () => {
    const own = svc.demo.companies[0]!.id;
    expect((await svc.call('GET', `/companies/${own}/customers`)).status).to.equal(200);
    const second = { 'x-api-key': svc.demo.second_organisation.api_key };
    expect((await svc.call('GET', `/companies/${svc.demo.second_organisation.company_id}/customers`, undefined, second)).status).to.equal(200);
    expect((await svc.call('GET', `/companies/${own}/customers`, undefined, second)).status).to.equal(404);
  });

  it('stores no secret in plaintext: only SHA-256 hashes of keys and client secrets', async () => {
    const events = await svc.services.store.readAll('', 1000);
    const everything = JSON.stringify(events);
    expect(everything).to.not.include(svc.demo.api_key);
    expect(everything).to.not.include(svc.demo.second_organisation.api_key);
    for (const c of svc.demo.companies) expect(everything).to.not.include(c.sapi.client_secret);
    expect(everything).to.not.include(svc.demo.admin.password);
  });
});
