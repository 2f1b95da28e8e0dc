import { expect } from 'chai';
import { changeOrganisationPlan, systemMetadata } from '../../src/modules/tenancy/tenancy.ts';
import { findOrganisationPlan } from '../../projections/tenancy/queries.ts';
import { clientAddress, trustedProxies } from '../../src/platform/http/client-address.ts';
import { sapiError } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { bearer, claimsOf, requestToken, sapiFetch } from './auth-support.ts';

describe('SAPI-SK gate', function () {
  this.timeout(120_000);

  describe('client address behind trusted proxies (TRUSTED_PROXIES)', () => {
    let svc: TestService;
    before(async () => {
      // the tests reach the service from loopback, which is the proxy here
      svc = await startTestService({ identity: { trustedProxies: ['127.0.0.1', '::1'] } });
    });
    after(async () => svc?.close());

    it('reads the client from X-Forwarded-For when the peer is a trusted proxy: inside the allowlist passes, outside is SAPI-AUTH-IP', async () => {
      const client = (await svc.call('POST', `/companies/${svc.demo.companies[0]!.id}/sapi-clients`)).body as { client_id: string; client_secret: string };
      expect((await svc.call('PUT', `/sapi-clients/${client.client_id}/allowlist`, { cidrs: ['203.0.113.0/24'] })).status).to.equal(200);
      const credentials = { client_id: client.client_id, client_secret: client.client_secret };
      const inside = { 'x-forwarded-for': '203.0.113.7' };
      const pair = await requestToken(svc, 0, credentials, inside);
      expect(pair.status).to.equal(200);
      expect((await sapiFetch(svc, 'GET', '/auth/token/status', undefined, { ...bearer(pair.body.access_token), ...inside })).status).to.equal(200);
      // a client's forged entry to the left of what the proxy appended is never read
      const forged = { 'x-forwarded-for': '203.0.113.7, 198.51.100.4' };
      for (const headers of [{}, { 'x-forwarded-for': '198.51.100.4' }, forged]) {
        const response = await sapiFetch(svc, 'GET', '/auth/token/status', undefined, { ...bearer(pair.body.access_token), ...headers });
        expect(sapiError(response).code, JSON.stringify(headers)).to.equal('SAPI-AUTH-IP');
      }
      expect(sapiError(await requestToken(svc, 0, credentials, { 'x-forwarded-for': '198.51.100.4' })).code).to.equal('SAPI-AUTH-IP');
    });

    it('takes the right-most address that is not a trusted proxy, and only from a trusted peer', () => {
      const trusted = trustedProxies(['10.0.0.0/8', '::1']);
      expect(clientAddress('10.1.1.1', '198.51.100.4, 203.0.113.7, 10.2.2.2', trusted)).to.equal('203.0.113.7');
      expect(clientAddress('::ffff:10.1.1.1', '203.0.113.7', trusted)).to.equal('203.0.113.7');
      expect(clientAddress('192.0.2.1', '203.0.113.7', trusted)).to.equal('192.0.2.1');
      expect(clientAddress('::1', 'not-an-ip', trusted)).to.equal('::1');
      expect(clientAddress('10.1.1.1', undefined, trusted)).to.equal('10.1.1.1');
      expect(() => trustedProxies(['10.0.0.0/40'])).to.throw(/TRUSTED_PROXIES/);
    });
  });

  describe('rate limit per SAPI client, sized by the plan in the token', () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService({ rateLimit: true });
    });
    after(async () => svc?.close());

    it('applies a plan change with the next token: the old token keeps its plan, the new one carries the new plan and its limit', async () => {
      const old = (await requestToken(svc, 1)).body;
      expect(claimsOf(old.access_token).plan).to.equal('Team Business');
      const { position } = await changeOrganisationPlan(svc.services, svc.demo.organisation_id, 'Solo Free', systemMetadata('test'));
      if (position) await svc.services.projections.caughtUp(position, 5000);
      expect(await findOrganisationPlan(svc.services.readModels, svc.demo.organisation_id)).to.equal('Solo Free');

      // Team Business: burst 200
      for (let i = 0; i < 20; i++) {
        expect((await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(old.access_token))).status).to.equal(200);
      }
      const renewed = await sapiFetch(svc, 'POST', '/auth/renew', { refresh_token: old.refresh_token });
      expect(claimsOf(renewed.body.access_token).plan).to.equal('Solo Free');
      const fresh = (await requestToken(svc, 1)).body;
      expect(claimsOf(fresh.access_token).plan).to.equal('Solo Free');
      // Solo Free: burst 15, one bucket per client whatever the token
      let allowed = 0;
      let limited: Awaited<ReturnType<typeof sapiFetch>> | null = null;
      for (let i = 0; i < 20 && !limited; i++) {
        const response = await sapiFetch(svc, 'GET', '/auth/token/status', undefined, bearer(fresh.access_token));
        if (response.status === 429) limited = response;
        else allowed++;
      }
      expect(limited, 'no 429 within 20 requests').to.not.equal(null);
      expect(allowed).to.be.at.most(15);
      const error = sapiError(limited!);
      expect(error).to.include({ code: 'SAPI-RATE-LIMIT', retryable: true });
      expect(error.details).to.deep.include({ field: 'plan', issue: 'Solo Free' });
      expect(Number(limited!.headers.get('retry-after'))).to.be.greaterThan(0);
    });
  });
});
