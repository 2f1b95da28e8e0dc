import { expect } from 'chai';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('API keys and OAuth 2.0 clients over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => svc?.close());

  const token = async (body: string, contentType: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${svc.api}/oauth2/token`, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body });
    return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
  };

  describe('API keys', () => {
    it('creates a key shown once with the svc_ prefix; lists it without the secret; the key works; PATCH renames', async () => {
      const created = await svc.call('POST', '/api-keys', { name: 'ERP', scopes: ['invoices:read'], expires_in_days: 30 });
      expect(created.status).to.equal(201);
      expect(created.body.api_key).to.match(/^svc_/);
      expect(created.body).to.include({ name: 'ERP', is_active: true, last_used_at: null });
      expect(created.body.scopes).to.deep.equal(['invoices:read']);
      expect(Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)).to.be.closeTo(30 * 86_400_000, 60_000);
      expect(created.body.api_key.startsWith(created.body.key_prefix)).to.equal(true);
      const listed = (await svc.call('GET', '/api-keys?page_size=100')).body.items.find((k: Json) => k.id === created.body.id);
      expect(listed).to.not.have.property('api_key');
      expect(JSON.stringify((await svc.call('GET', '/api-keys')).body)).to.not.include(created.body.api_key);
      // scopes are recorded, not enforced: a read-only key may write (v1)
      const write = await svc.call('POST', '/customers', { name: 'Org customer', vat_id: 'SK2020273893', ico: '35757442', city: 'Nitra' }, { 'x-api-key': created.body.api_key });
      expect(write.status).to.equal(201);
      await svc.services.auth.lastUsed.flush();
      const used = (await svc.call('GET', '/api-keys?page_size=100')).body.items.find((k: Json) => k.id === created.body.id);
      expect(used.last_used_at).to.be.a('string');
      const renamed = await svc.call('PATCH', `/api-keys/${created.body.id}`, { name: 'ERP 2' });
      expect(renamed.body).to.include({ name: 'ERP 2' });
      expect(renamed.body.scopes).to.deep.equal(['invoices:read']);
    });

    it('refuses a name over 100, an unknown scope and expires_in_days outside 1-365 (422)', async () => {
      for (const body of [{ name: 'x'.repeat(101) }, { name: 'k', scopes: ['invoices:delete'] }, { name: 'k', expires_in_days: 0 }, { name: 'k', expires_in_days: 366 }]) {
        expect((await svc.call('POST', '/api-keys', body)).status, JSON.stringify(body)).to.equal(422);
      }
    });

    it('a revoked key stops working at once (401); revoking again answers the same', async () => {
      const created = (await svc.call('POST', '/api-keys', { name: 'temp' })).body;
      const as = { 'x-api-key': created.api_key };
      expect((await svc.call('GET', '/api-keys', undefined, as)).status).to.equal(200);
      expect((await svc.call('GET', '/api-keys', undefined, { 'x-api-key': '', authorization: `Bearer ${created.api_key}` })).status).to.equal(200);
      const revoked = await svc.call('DELETE', `/api-keys/${created.id}`);
      expect(revoked.body).to.deep.equal({ id: created.id, message: 'API key revoked' });
      const refused = await svc.call('GET', '/api-keys', undefined, as);
      expect(refused.status).to.equal(401);
      expect(refused.body.detail.error).to.equal('invalid_api_key');
      expect((await svc.call('GET', '/api-keys', undefined, { 'x-api-key': '', authorization: `Bearer ${created.api_key}` })).status).to.equal(401);
      expect((await svc.call('DELETE', `/api-keys/${created.id}`)).status).to.equal(200);
    });

    it('an expired key stops working', async () => {
      const created = (await svc.call('POST', '/api-keys', { name: 'short', expires_in_days: 1 })).body;
      const realNow = svc.services.clock.now.bind(svc.services.clock);
      const clock = svc.services.clock as { now(): Date };
      const original = clock.now;
      clock.now = () => new Date(realNow().getTime() + 2 * 86_400_000);
      try {
        expect((await svc.call('GET', '/api-keys', undefined, { 'x-api-key': created.api_key })).status).to.equal(401);
      } finally {
        clock.now = original;
      }
    });
  });

  describe('OAuth 2.0 client credentials', () => {
    it('registers a client (secret once), exchanges form-encoded credentials for a 15-minute Bearer token that works on the API', async () => {
      const client = await svc.call('POST', '/oauth2/clients', { name: 'Partner' });
      expect(client.status).to.equal(201);
      expect(client.body).to.include({ name: 'Partner', scopes: 'invoices:read,invoices:write,invoices:send', is_active: true });
      expect(client.body.client_secret).to.be.a('string');
      expect(JSON.stringify((await svc.call('GET', '/oauth2/clients')).body)).to.not.include(client.body.client_secret);
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.body.client_id, client_secret: client.body.client_secret }).toString();
      const issued = await token(form, 'application/x-www-form-urlencoded');
      expect(issued.status).to.equal(200);
      expect(issued.body).to.include({ token_type: 'Bearer', expires_in: 900 });
      expect(issued.body).to.not.have.property('refresh_token');
      expect(issued.headers.get('cache-control')).to.equal('no-store');
      const res = await svc.call('GET', `/companies/${svc.demo.companies[0]!.id}/invoices`, undefined, { 'x-api-key': '', authorization: `Bearer ${issued.body.access_token}` });
      expect(res.status).to.equal(200);
      // JSON and HTTP Basic work too
      expect((await token(JSON.stringify({ grant_type: 'client_credentials', client_id: client.body.client_id, client_secret: client.body.client_secret }), 'application/json')).status).to.equal(200);
      // a third party's token acts for the organisation but mints no credentials of its own
      const mint = await svc.call('POST', '/api-keys', { name: 'from a client' }, { 'x-api-key': '', authorization: `Bearer ${issued.body.access_token}` });
      expect(mint.status).to.equal(403);
      expect(mint.body.detail.error).to.equal('insufficient_role');
      const basic = Buffer.from(`${client.body.client_id}:${client.body.client_secret}`).toString('base64');
      expect((await token('grant_type=client_credentials', 'application/x-www-form-urlencoded', { authorization: `Basic ${basic}` })).status).to.equal(200);
    });

    it('answers the RFC errors: unsupported_grant_type, invalid_client (wrong secret, unknown or revoked client)', async () => {
      const client = (await svc.call('POST', '/oauth2/clients', { name: 'Other', scopes: 'invoices:read' })).body;
      const grant = await token(`grant_type=password&client_id=${client.client_id}&client_secret=${client.client_secret}`, 'application/x-www-form-urlencoded');
      expect(grant.status).to.equal(400);
      expect(grant.body.error).to.equal('unsupported_grant_type');
      for (const [id, secret] of [[client.client_id, 'wrong'], ['oc_unknown', client.client_secret]]) {
        const bad = await token(`grant_type=client_credentials&client_id=${id}&client_secret=${secret}`, 'application/x-www-form-urlencoded');
        expect(bad.status).to.equal(401);
        expect(bad.body.error).to.equal('invalid_client');
      }
      const narrower = await token(`grant_type=client_credentials&client_id=${client.client_id}&client_secret=${client.client_secret}&scope=invoices:read&audience=ignored`, 'application/x-www-form-urlencoded');
      expect(narrower.status).to.equal(200); // unknown parameters are ignored (RFC 6749 §3.2)
      expect(narrower.body.scope).to.equal('invoices:read');
      const wider = await token(`grant_type=client_credentials&client_id=${client.client_id}&client_secret=${client.client_secret}&scope=invoices:send`, 'application/x-www-form-urlencoded');
      expect([wider.status, wider.body.error]).to.deep.equal([400, 'invalid_scope']);
      const empty = await token('', 'application/x-www-form-urlencoded');
      expect([empty.status, empty.body.error]).to.deep.equal([400, 'invalid_request']);
      expect((await svc.call('DELETE', `/oauth2/clients/${client.client_id}`)).status).to.equal(200);
      const revoked = await token(`grant_type=client_credentials&client_id=${client.client_id}&client_secret=${client.client_secret}`, 'application/x-www-form-urlencoded');
      expect(revoked.body.error).to.equal('invalid_client');
    });

    it('a client token acts for its own organisation only', async () => {
      const other = await createTestOrganisation(svc.services, 'Team Business');
      const client = (await svc.call('POST', '/oauth2/clients', { name: 'Mine' })).body;
      const issued = await token(`grant_type=client_credentials&client_id=${client.client_id}&client_secret=${client.client_secret}`, 'application/x-www-form-urlencoded');
      const res = await svc.call('GET', `/companies/${other.companyId}/invoices`, undefined, { 'x-api-key': '', authorization: `Bearer ${issued.body.access_token}` });
      expect(res.status).to.equal(404);
    });
  });
});
