import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { sapiError } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { bearer, sapiFetch } from './auth-support.ts';

describe('SAPI-SK credentials: installing and managing them (/api/v1)', function () {
  this.timeout(120_000);
  let svc: TestService;
  let companyId: string;
  before(async () => {
    svc = await startTestService();
    companyId = svc.demo.companies[0]!.id;
  });
  after(async () => svc?.close());

  const install = async () => {
    const response = await svc.call('POST', `/companies/${companyId}/sapi-clients`);
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    return response.body as { client_id: string; client_secret: string };
  };
  const token = (client: { client_id: string; client_secret: string }, headers: Record<string, string> = {}) =>
    sapiFetch(svc, 'POST', '/auth/token', { client_id: client.client_id, client_secret: client.client_secret, grant_type: 'client_credentials' }, headers);
  const status = (accessToken: string, headers: Record<string, string> = {}) => sapiFetch(svc, 'GET', '/auth/token/status', undefined, { ...bearer(accessToken), ...headers });

  it('installs a client for a company: client_id, the secret once, the base address and the company\'s participant as the lock', async () => {
    const response = await svc.call('POST', `/companies/${companyId}/sapi-clients`);
    expect(response.status).to.equal(201);
    const company = svc.demo.companies[0]!;
    expect(response.body).to.include({ company_id: companyId, participant_id: company.peppol_id, base_url: `${svc.root}/sapi`, enabled: true });
    expect(response.body.client_id).to.match(/^sapi_[0-9a-f]{32}$/);
    expect(response.body.client_secret).to.be.a('string').with.length.greaterThan(40);
    expect(response.body.allowlist).to.deep.equal([]);
    expect(response.headers.get('location')).to.equal(`/api/v1/sapi-clients/${response.body.client_id}`);
    const pair = await token(response.body);
    expect(pair.status).to.equal(200);
    expect((await status(pair.body.access_token)).body.client_id).to.equal(response.body.client_id);
  });

  it('never replays a secret: a repeated Idempotency-Key answers 409 and installs nothing more', async () => {
    const key = { 'idempotency-key': `install-${Date.now()}` };
    const first = await svc.call('POST', `/companies/${companyId}/sapi-clients`, undefined, key);
    expect(first.status).to.equal(201);
    const repeat = await svc.call('POST', `/companies/${companyId}/sapi-clients`, undefined, key);
    expect(repeat.status).to.equal(409);
    expect(repeat.body.detail.error).to.equal('idempotency_key_secret_not_replayable');
    expect(JSON.stringify(repeat.body)).to.not.include(first.body.client_secret);
  });

  it('documents the routes in both OpenAPI documents', async () => {
    const native = (await (await fetch(`${svc.root}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    for (const path of ['/companies/{company_id}/sapi-clients', '/sapi-clients/{sapi_client_id}', '/sapi-clients/{sapi_client_id}/rotate-secret',
      '/sapi-clients/{sapi_client_id}/allowlist', '/sapi-clients/{sapi_client_id}/disable', '/sapi-clients/{sapi_client_id}/enable']) {
      expect(native.paths, path).to.have.property(path);
    }
    const sapi = (await (await fetch(`${svc.root}/sapi/openapi.json`)).json()) as { paths: Record<string, unknown> };
    for (const path of ['/auth/token', '/auth/renew', '/auth/revoke', '/auth/token/status']) expect(sapi.paths, path).to.have.property(path);
  });

  it('stores the secret only as its SHA-256', async () => {
    const client = await install();
    const events = await svc.services.store.readStream(`sapi_client-${client.client_id}`);
    const stored = JSON.stringify(events);
    expect(stored).to.not.include(client.client_secret);
    expect(stored).to.include(createHash('sha256').update(client.client_secret).digest('hex'));
  });

  it('lists a company\'s clients and shows one, never with a secret or its hash', async () => {
    const client = await install();
    const list = await svc.call('GET', `/companies/${companyId}/sapi-clients`);
    expect(list.status).to.equal(200);
    const listed = (list.body.items as { client_id: string }[]).find((c) => c.client_id === client.client_id);
    expect(listed).to.not.equal(undefined);
    expect(JSON.stringify(list.body)).to.not.match(/secret"|secret_hash/);
    const one = await svc.call('GET', `/sapi-clients/${client.client_id}`);
    expect(one.status).to.equal(200);
    expect(one.body).to.not.have.property('client_secret');
  });

  it('treats another organisation\'s client and company as not found', async () => {
    const client = await install();
    const other = { 'x-api-key': svc.demo.second_organisation.api_key };
    expect((await svc.call('GET', `/sapi-clients/${client.client_id}`, undefined, other)).status).to.equal(404);
    for (const action of ['disable', 'enable', 'rotate-secret']) {
      const response = await svc.call('POST', `/sapi-clients/${client.client_id}/${action}`, undefined, other);
      expect(response.status, action).to.equal(404);
      expect(response.body.detail.error).to.equal('sapi_client_not_found');
    }
    expect((await svc.call('PUT', `/sapi-clients/${client.client_id}/allowlist`, { cidrs: [] }, other)).status).to.equal(404);
    expect((await svc.call('POST', `/companies/${companyId}/sapi-clients`, undefined, other)).body.detail.error).to.equal('company_not_found');
    expect((await svc.call('GET', `/companies/${companyId}/sapi-clients`, undefined, other)).status).to.equal(404);
    // the client still works for its own organisation
    expect((await token(client)).status).to.equal(200);
  });

  it('rotates the secret: the old one is refused, the new one works, and tokens issued before end', async () => {
    const client = await install();
    const before = (await token(client)).body;
    const rotated = await svc.call('POST', `/sapi-clients/${client.client_id}/rotate-secret`);
    expect(rotated.status).to.equal(200);
    expect(rotated.body.client_secret).to.be.a('string').and.not.equal(client.client_secret);
    expect(rotated.body.secret_rotated_at).to.be.a('string');
    expect(sapiError(await token(client)).code).to.equal('SAPI-AUTH-001');
    expect(sapiError(await status(before.access_token)).code).to.equal('SAPI-AUTH-001');
    expect(sapiError(await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: before.refresh_token })).code).to.equal('SAPI-AUTH-001');
    const after = await token({ client_id: client.client_id, client_secret: rotated.body.client_secret });
    expect(after.status).to.equal(200);
    expect((await status(after.body.access_token)).status).to.equal(200);
  });

  it('refuses an allowlist entry that is not an address or CIDR, naming it (422)', async () => {
    const client = await install();
    const response = await svc.call('PUT', `/sapi-clients/${client.client_id}/allowlist`, { cidrs: ['203.0.113.0/24', '10.0.0.0/33', 'host.example'] });
    expect(response.status).to.equal(422);
    expect((response.body.detail as { loc: unknown[] }[]).map((d) => d.loc)).to.deep.equal([['body', 'cidrs', 1], ['body', 'cidrs', 2]]);
  });

  it('applies the allowlist to tokens, renewals and every request with a token: outside is SAPI-AUTH-IP; X-Forwarded-For from a peer that is no trusted proxy is ignored', async () => {
    const client = await install();
    const pair = (await token(client)).body;
    const set = await svc.call('PUT', `/sapi-clients/${client.client_id}/allowlist`, { cidrs: ['203.0.113.9/24', '2001:db8::/32'] });
    expect(set.status).to.equal(200);
    expect(set.body.allowlist).to.deep.equal(['203.0.113.0/24', '2001:db8::/32']);
    const spoofed = { 'x-forwarded-for': '203.0.113.5' };
    for (const response of [await token(client), await token(client, spoofed), await status(pair.access_token), await status(pair.access_token, spoofed),
      await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: pair.refresh_token })]) {
      expect(response.status).to.equal(403);
      expect(sapiError(response)).to.include({ code: 'SAPI-AUTH-IP', category: 'AUTH', retryable: false });
    }
    const localhost = await svc.call('PUT', `/sapi-clients/${client.client_id}/allowlist`, { cidrs: ['127.0.0.0/8', '::1'] });
    expect(localhost.body.allowlist).to.deep.equal(['127.0.0.0/8', '::1/128']);
    expect((await status(pair.access_token)).status).to.equal(200);
    expect((await svc.call('PUT', `/sapi-clients/${client.client_id}/allowlist`, { cidrs: [] })).body.allowlist).to.deep.equal([]);
    expect((await token(client)).status).to.equal(200);
  });

  it('disables a client: tokens, renewals and requests get SAPI-DISABLED (503, retryable) until it is enabled again', async () => {
    const client = await install();
    const pair = (await token(client)).body;
    const disabled = await svc.call('POST', `/sapi-clients/${client.client_id}/disable`);
    expect(disabled.status).to.equal(200);
    expect(disabled.body.enabled).to.equal(false);
    expect((await svc.call('POST', `/sapi-clients/${client.client_id}/disable`)).status).to.equal(200);
    for (const response of [await token(client), await status(pair.access_token), await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: pair.refresh_token })]) {
      expect(response.status).to.equal(503);
      expect(sapiError(response)).to.include({ code: 'SAPI-DISABLED', category: 'TEMPORARY', retryable: true });
    }
    const enabled = await svc.call('POST', `/sapi-clients/${client.client_id}/enable`);
    expect(enabled.body.enabled).to.equal(true);
    expect((await status(pair.access_token)).status).to.equal(200);
    expect((await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: pair.refresh_token })).status).to.equal(200);
  });

  it('lets a signed-in admin manage credentials too', async () => {
    const login = await fetch(`${svc.api}/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: svc.demo.admin.email, password: svc.demo.admin.password }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    // the admin may; an OAuth client may not manage credentials (commands/identity/permissions.ts)
    expect((await svc.call('GET', `/companies/${companyId}/sapi-clients`, undefined, { 'x-api-key': '', authorization: `Bearer ${access_token}` })).status).to.equal(200);
  });
});
