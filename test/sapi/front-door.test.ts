import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';
import { sapiError, sapiTestClient } from '../support/sapi.ts';

describe('SAPI-SK front door (/sapi)', function () {
  this.timeout(120_000);
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => svc?.close());

  it('answers an unknown route in the SAPI envelope, with the correlation id as a header too', async () => {
    const client = await sapiTestClient(svc);
    const response = await client.call('GET', '/no/such/route');
    expect(response.status).to.equal(404);
    const error = sapiError(response);
    expect(error).to.include({ category: 'PERMANENT', code: 'SAPI-NOT-FOUND', retryable: false });
    expect(error.correlation_id).to.be.a('string').and.not.equal('');
  });

  it('serves its own health, OpenAPI document and docs under /sapi', async () => {
    expect((await fetch(`${svc.root}/sapi/health`)).status).to.equal(200);
    const doc = (await (await fetch(`${svc.root}/sapi/openapi.json`)).json()) as { info: { title: string }; servers?: unknown };
    expect(doc.info.title).to.equal('SAPI-SK connector');
    const page = await (await fetch(`${svc.root}/sapi/docs`)).text();
    expect(page).to.include('/sapi/docs/assets/swagger-ui.css');
    const init = await (await fetch(`${svc.root}/sapi/docs/assets/init.js`)).text();
    expect(init).to.include('"/sapi/openapi.json"');
    expect(await (await fetch(`${svc.root}/sapi/redoc`)).text()).to.include('spec-url="/sapi/openapi.json"');
    expect((await fetch(`${svc.root}/sapi/redoc/assets/redoc.standalone.js`)).status).to.equal(200);
    // the native documents stay where they were
    expect(((await (await fetch(`${svc.root}/openapi.json`)).json()) as { info: { title: string } }).info.title).to.not.equal('SAPI-SK connector');
  });

  it('refuses a SAPI access token on /api/v1, as a native 401', async () => {
    const client = await sapiTestClient(svc);
    const response = await fetch(`${svc.api}/invoices`, { headers: { authorization: `Bearer ${client.token}` } });
    expect(response.status).to.equal(401);
    expect(((await response.json()) as { detail: { error: string } }).detail.error).to.equal('invalid_token');
  });
});
