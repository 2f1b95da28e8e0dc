import { expect } from 'chai';
import { sapiError } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { bearer, claimsOf, movableClock, requestToken, sapiFetch } from './auth-support.ts';

describe('SAPI-SK tokens (/sapi/auth/*)', function () {
  this.timeout(120_000);
  const clock = movableClock();
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ clock });
  });
  after(async () => svc?.close());

  describe('POST /auth/token', () => {
    it('answers the token response for client credentials in a JSON body: Bearer, 900 s, a refresh token, both scopes', async () => {
      const response = await requestToken(svc);
      expect(response.status).to.equal(200);
      expect(response.body).to.have.all.keys('access_token', 'token_type', 'expires_in', 'refresh_token', 'scope');
      expect(response.body).to.include({ token_type: 'Bearer', expires_in: 900, scope: 'document:send document:receive' });
      expect(response.body.refresh_token).to.match(/^sapi_rt_/);
      expect(response.headers.get('cache-control')).to.equal('no-store');
    });

    it('carries client, company, participant, scopes, plan and family in the access token, with its own audience', async () => {
      const company = svc.demo.companies[0]!;
      const claims = claimsOf((await requestToken(svc)).body.access_token);
      expect(claims).to.include({
        sub: company.sapi.client_id, aud: 'sk-einvoicing:sapi', org: svc.demo.organisation_id, company: company.id,
        participant: company.sapi.participant_id, scope: 'document:send document:receive', plan: svc.demo.plan,
      });
      expect(claims.sid).to.be.a('string');
      expect((claims.exp as number) - (claims.iat as number)).to.equal(900);
    });

    it('grants only a narrower scope when one is asked for: the token and its status carry only that', async () => {
      const response = await requestToken(svc, 0, { scope: 'document:receive' });
      expect(response.status).to.equal(200);
      expect(response.body.scope).to.equal('document:receive');
      const status = await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(response.body.access_token));
      expect(status.body.scope).to.equal('document:receive');
    });

    it('refuses an unknown scope with SAPI-VAL-SCOPE', async () => {
      const response = await requestToken(svc, 0, { scope: 'document:send document:delete' });
      expect(response.status).to.equal(400);
      expect(sapiError(response)).to.include({ code: 'SAPI-VAL-SCOPE', category: 'VALIDATION', retryable: false });
    });

    it('refuses a form body, a missing field and another grant type with SAPI-VAL-001', async () => {
      const { client_id, client_secret } = svc.demo.companies[0]!.sapi;
      const form = await sapiFetch(svc, 'POST', '/auth/token', `grant_type=client_credentials&client_id=${client_id}&client_secret=${client_secret}`, { 'content-type': 'application/x-www-form-urlencoded' });
      expect(form.status).to.equal(400);
      expect(sapiError(form).code).to.equal('SAPI-VAL-001');
      const missing = await sapiFetch(svc, 'POST', '/auth/token', { client_id, grant_type: 'client_credentials' });
      expect(sapiError(missing).code).to.equal('SAPI-VAL-001');
      expect(sapiError(missing).details.map((d) => d.field)).to.include('body.client_secret');
      const grant = await requestToken(svc, 0, { grant_type: 'password' });
      expect(sapiError(grant).code).to.equal('SAPI-VAL-001');
      expect(sapiError(grant).details.map((d) => d.field)).to.include('body.grant_type');
    });

    it('refuses a wrong secret and an unknown client alike with SAPI-AUTH-001', async () => {
      const wrong = await requestToken(svc, 1, { client_secret: 'not-the-secret' });
      expect(wrong.status).to.equal(401);
      const unknown = await requestToken(svc, 1, { client_id: 'sapi_nosuchclient' });
      expect(unknown.status).to.equal(401);
      expect(sapiError(wrong)).to.deep.include({ code: 'SAPI-AUTH-001', category: 'AUTH', retryable: false, details: [{ field: 'client_secret', issue: 'invalid' }] });
      expect(sapiError(unknown).message).to.equal(sapiError(wrong).message);
    });
  });

  describe('POST /auth/renew', () => {
    it('rotates the pair: a new access and refresh token, and the old refresh token is refused', async () => {
      const first = (await requestToken(svc)).body;
      const renewed = await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: first.refresh_token });
      expect(renewed.status).to.equal(200);
      expect(renewed.body).to.include({ token_type: 'Bearer', expires_in: 900, scope: first.scope });
      expect(renewed.body.refresh_token).to.not.equal(first.refresh_token);
      expect(renewed.body.access_token).to.not.equal(first.access_token);
      expect(claimsOf(renewed.body.access_token).sid).to.equal(claimsOf(first.access_token).sid);
      const again = await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: first.refresh_token });
      expect(again.status).to.equal(401);
      expect(sapiError(again).code).to.equal('SAPI-AUTH-001');
    });

    it('ends the whole family when a used refresh token comes back (reuse): the newer pair is refused too', async () => {
      const first = (await requestToken(svc)).body;
      const second = (await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: first.refresh_token })).body;
      expect((await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: first.refresh_token })).status).to.equal(401);
      const newer = await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: second.refresh_token });
      expect(sapiError(newer).code).to.equal('SAPI-AUTH-001');
      const status = await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(second.access_token));
      expect(sapiError(status).code).to.equal('SAPI-AUTH-001');
    });

    it('refuses a refresh token that is not ours, and one past its 30 days', async () => {
      const forged = await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: 'sapi_rt_00000000-0000-4000-8000-000000000000_' + 'A'.repeat(43) });
      expect(sapiError(forged).code).to.equal('SAPI-AUTH-001');
      const garbage = await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: 'nonsense' });
      expect(sapiError(garbage).code).to.equal('SAPI-AUTH-001');
      const pair = (await requestToken(svc)).body;
      clock.advance(30 * 24 * 3600 + 1);
      try {
        const expired = await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: pair.refresh_token });
        expect(sapiError(expired).code).to.equal('SAPI-AUTH-001');
      } finally {
        clock.advance(-(30 * 24 * 3600 + 1));
      }
    });
  });

  describe('POST /auth/revoke', () => {
    it('revokes a pair by its access token: the gate refuses it from the answer on, the refresh token too; a repeat answers the same', async () => {
      const pair = (await requestToken(svc)).body;
      expect((await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(pair.access_token))).status).to.equal(200);
      const revoked = await sapiFetch(svc, 'POST', '/auth/revoke', { token: pair.access_token });
      expect(revoked.status).to.equal(200);
      expect(revoked.body).to.deep.equal({ revoked: true });
      expect(sapiError(await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(pair.access_token))).code).to.equal('SAPI-AUTH-001');
      expect(sapiError(await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: pair.refresh_token })).code).to.equal('SAPI-AUTH-001');
      const repeat = await sapiFetch(svc, 'POST', '/auth/revoke', { token: pair.access_token });
      expect(repeat.status).to.equal(200);
      expect(repeat.body).to.deep.equal({ revoked: true });
    });

    it('revokes a pair by its refresh token, its renewed access tokens included', async () => {
      const first = (await requestToken(svc)).body;
      const second = (await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: first.refresh_token })).body;
      expect((await sapiFetch(svc, 'POST', '/auth/revoke', { token: second.refresh_token })).body).to.deep.equal({ revoked: true });
      for (const token of [first.access_token, second.access_token]) {
        expect(sapiError(await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(token))).code).to.equal('SAPI-AUTH-001');
      }
      // another pair of the same client is untouched
      const other = (await requestToken(svc)).body;
      expect((await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(other.access_token))).status).to.equal(200);
    });

    it('answers the same for a token that is unknown or not a token at all', async () => {
      for (const token of ['nonsense', 'sapi_rt_00000000-0000-4000-8000-000000000000_' + 'B'.repeat(43), 'eyJhbGciOiJIUzI1NiJ9.e30.x']) {
        const response = await sapiFetch(svc, 'POST', '/auth/revoke', { token });
        expect(response.status).to.equal(200);
        expect(response.body).to.deep.equal({ revoked: true });
      }
      expect(sapiError(await sapiFetch(svc, 'POST', '/auth/revoke', {})).code).to.equal('SAPI-VAL-001');
    });
  });

  describe('GET /auth/token/status', () => {
    it('reports a valid token\'s time left, and should_refresh only when fewer than 180 s remain', async () => {
      const pair = (await requestToken(svc)).body;
      const fresh = await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(pair.access_token));
      expect(fresh.status).to.equal(200);
      expect(fresh.body).to.include({ valid: true, client_id: svc.demo.companies[0]!.sapi.client_id, should_refresh: false });
      expect(fresh.body.expires_in).to.be.within(898, 900);
      expect(Date.parse(fresh.body.expires_at)).to.equal((claimsOf(pair.access_token).exp as number) * 1000);
      // stopped at exact instants: real time passing between two requests must not move the boundary
      const expiresAtMs = (claimsOf(pair.access_token).exp as number) * 1000;
      clock.stopAt(new Date(expiresAtMs - 180_000));
      try {
        const before = await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(pair.access_token));
        expect(before.body).to.include({ expires_in: 180, should_refresh: false });
        clock.advance(1);
        const late = await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(pair.access_token));
        expect(late.body).to.include({ expires_in: 179, should_refresh: true });
        clock.advance(300); // past the verifier's clock tolerance too
        const expired = await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(pair.access_token));
        expect(expired.status).to.equal(401);
        expect(sapiError(expired).code).to.equal('SAPI-AUTH-001');
      } finally {
        clock.resume();
      }
    });

    it('refuses a request without a token with SAPI-AUTH-001', async () => {
      const response = await sapiFetch(svc, 'GET', '/auth/token/status');
      expect(response.status).to.equal(401);
      expect(sapiError(response).code).to.equal('SAPI-AUTH-001');
    });
  });

  describe('separation of the two doors', () => {
    it('refuses a native API key on /sapi (X-Api-Key or Bearer svc_) with SAPI-AUTH-001', async () => {
      for (const headers of [{ 'x-api-key': svc.demo.api_key }, bearer(svc.demo.api_key)]) {
        const response = await sapiFetch(svc, 'GET', '/auth/token/status', undefined, headers);
        expect(response.status).to.equal(401);
        expect(sapiError(response).code).to.equal('SAPI-AUTH-001');
      }
    });

    it('refuses a native user JWT on /sapi with SAPI-AUTH-001', async () => {
      const login = await fetch(`${svc.api}/auth/login`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: svc.demo.admin.email, password: svc.demo.admin.password }),
      });
      expect(login.status).to.equal(200);
      const { access_token } = (await login.json()) as { access_token: string };
      expect((await fetch(`${svc.api}/auth/me`, { headers: bearer(access_token) })).status).to.equal(200);
      const response = await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(access_token));
      expect(response.status).to.equal(401);
      expect(sapiError(response).code).to.equal('SAPI-AUTH-001');
    });

    it('refuses a SAPI access token from /auth/token on /api/v1 with the native 401', async () => {
      const { access_token } = (await requestToken(svc)).body;
      const response = await fetch(`${svc.api}/invoices`, { headers: bearer(access_token) });
      expect(response.status).to.equal(401);
      expect(((await response.json()) as { detail: { error: string } }).detail.error).to.equal('invalid_token');
    });
  });
});
