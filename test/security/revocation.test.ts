import { expect } from 'chai';
import { pino } from 'pino';
import { loadConfig } from '../../src/platform/config.ts';
import { createDemo, type DemoCredentials } from '../../src/demo/bootstrap.ts';
import { createApp } from '../../src/doors/native/app.ts';
import { ephemeralSigningKeyPem } from '../../src/modules/identity/ephemeral-key.ts';
import { issueAccessToken } from '../../src/modules/identity/tokens.ts';
import type { Clock } from '../../src/platform/ports/clock.ts';
import { openService, type Service } from '../../src/service.ts';
import { listen } from '../api/support/http.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { withoutRequestId } from '../support/request-id.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One instance of the service over HTTP on a database another instance may share. */
interface Instance {
  api: string;
  services: Service;
  close(): Promise<void>;
}

async function startInstance(database: TestDatabase, jwtPrivateKeyPem: string, clock?: Clock): Promise<Instance> {
  const defaults = loadConfig({ VALIDATION_ARTIFACTS_DIR: process.env.VALIDATION_ARTIFACTS_DIR });
  const config = { ...defaults, databaseUrl: database.connectionString, identity: { ...defaults.identity, rateLimit: false, jwtPrivateKeyPem } };
  const services = await openService(config, { log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), runReactors: false, clock });
  const running = await listen(createApp(services));
  return {
    api: `${running.base}/api/v1`,
    services,
    async close() {
      await running.close();
      await services.close();
    },
  };
}

async function call(api: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Json;
const REFUSED = { detail: { error: 'invalid_token', message: 'the bearer token is not valid' } };

async function clientToken(api: string, apiKey: string): Promise<{ clientId: string; token: string }> {
  const client = await call(api, 'POST', '/oauth2/clients', { 'x-api-key': apiKey }, { name: 'Účtovný softvér' });
  expect(client.status).to.equal(201);
  const res = await fetch(`${api}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.body.client_id, client_secret: client.body.client_secret }).toString(),
  });
  expect(res.status).to.equal(200);
  return { clientId: client.body.client_id, token: ((await res.json()) as Json).access_token };
}

describe('revocation and token lifetime over HTTP', function () {
  this.timeout(180_000);

  describe('one instance', () => {
    let svc: TestService;
    before(async () => (svc = await startTestService()));
    after(async () => svc?.close());

    const signIn = async () => {
      const res = await call(svc.api, 'POST', '/auth/login', {}, { email: svc.demo.admin.email, password: svc.demo.admin.password });
      expect(res.status).to.equal(200);
      return res.body as { access_token: string; refresh_token: string };
    };
    const customers = () => `/companies/${svc.demo.companies[0]!.id}/customers`;

    it('a user\'s access token is refused once its session is logged out (it used to work 15 minutes more)', async () => {
      const session = await signIn();
      const other = await signIn();
      expect((await call(svc.api, 'GET', customers(), bearer(session.access_token))).status).to.equal(200);
      expect((await call(svc.api, 'POST', '/auth/logout', {}, { refresh_token: session.refresh_token })).status).to.equal(200);
      for (const path of [customers(), '/auth/me']) {
        const refused = await call(svc.api, 'GET', path, bearer(session.access_token));
        expect(refused.status, path).to.equal(401);
        expect(withoutRequestId(refused.body)).to.deep.equal(REFUSED);
      }
      // the user's other session is not concerned
      expect((await call(svc.api, 'GET', '/auth/me', bearer(other.access_token))).status).to.equal(200);
    });

    it('a session ended because its refresh token was reused loses its access tokens too', async () => {
      const session = await signIn();
      const rotated = await call(svc.api, 'POST', '/auth/refresh', {}, { refresh_token: session.refresh_token });
      expect(rotated.status).to.equal(200);
      expect((await call(svc.api, 'POST', '/auth/refresh', {}, { refresh_token: session.refresh_token })).status).to.equal(401);
      for (const token of [session.access_token, rotated.body.access_token as string]) {
        expect((await call(svc.api, 'GET', '/auth/me', bearer(token))).status).to.equal(401);
      }
    });

    it('a password change ends the user\'s other sessions with their access tokens; this one keeps working', async () => {
      const other = await signIn();
      const current = await signIn();
      const changed = await call(svc.api, 'POST', '/auth/password', bearer(current.access_token), { current_password: svc.demo.admin.password, new_password: 'Nové-heslo-2026!' });
      expect(changed.status).to.equal(200);
      svc.demo.admin.password = 'Nové-heslo-2026!';
      expect((await call(svc.api, 'GET', '/auth/me', bearer(other.access_token))).status).to.equal(401);
      expect((await call(svc.api, 'GET', '/auth/me', bearer(current.access_token))).status).to.equal(200);
    });

    it('an OAuth client\'s live access token is refused once the client is revoked; another client\'s is not', async () => {
      const revoked = await clientToken(svc.api, svc.demo.api_key);
      const kept = await clientToken(svc.api, svc.demo.api_key);
      expect((await call(svc.api, 'GET', customers(), bearer(revoked.token))).status).to.equal(200);
      expect((await call(svc.api, 'DELETE', `/oauth2/clients/${revoked.clientId}`, { 'x-api-key': svc.demo.api_key })).status).to.equal(200);
      const refused = await call(svc.api, 'GET', customers(), bearer(revoked.token));
      expect(refused.status).to.equal(401);
      expect(withoutRequestId(refused.body)).to.deep.equal(REFUSED);
      expect((await call(svc.api, 'GET', customers(), bearer(kept.token))).status).to.equal(200);
    });

    it('refuses a token signed by the service\'s own key that lives longer than 900 s (401 invalid_token); 900 s passes', async () => {
      const ring = await svc.services.identity.ring();
      const subject = { subject: svc.demo.organisation_id, organisation_id: svc.demo.organisation_id, role: 'admin' as const, plan: svc.demo.plan, token_use: 'oauth_client' as const, scopes: ['invoices:read'] };
      const long = await issueAccessToken(ring, subject, 3600);
      const refused = await call(svc.api, 'GET', customers(), bearer(long));
      expect(refused.status).to.equal(401);
      expect(withoutRequestId(refused.body)).to.deep.equal(REFUSED);
      expect((await call(svc.api, 'GET', customers(), bearer(await issueAccessToken(ring, subject, 901)))).status).to.equal(401);
      expect((await call(svc.api, 'GET', customers(), bearer(await issueAccessToken(ring, subject, 900)))).status).to.equal(200);
    });
  });

  describe('two instances on one database', () => {
    let database: TestDatabase;
    let pem: string;
    const instances: Instance[] = [];
    let demo: DemoCredentials;
    // Pinned: a cached API key then never expires from the cache by time, so only a notice can make
    // an instance refuse it, and no assertion depends on how fast this machine is.
    const pinned: Clock = { now: () => new Date('2026-11-23T12:00:00.000Z') };

    before(async () => {
      database = await freshDatabase();
      pem = await ephemeralSigningKeyPem();
      instances.push(await startInstance(database, pem, pinned), await startInstance(database, pem, pinned));
      demo = await createDemo(instances[0]!.services, instances[0]!.api);
    });
    after(async () => {
      for (const instance of instances.reverse()) await instance.close();
      await database?.drop();
    });
    const [a, b] = [() => instances[0]!, () => instances[1]!];
    const customers = () => `/companies/${demo.companies[0]!.id}/customers`;
    /** On PGlite notices do not cross its socket connections; only one process can open its files anyway. */
    const postgresOnly = (ctx: Mocha.Context) => {
      if (database.kind === 'pglite') ctx.skip();
    };

    it('an API key revoked on one instance is refused by the other at once, while that one still had it cached', async function () {
      postgresOnly(this);
      const key = await call(a().api, 'POST', '/api-keys', { 'x-api-key': demo.api_key }, { name: 'ERP' });
      expect(key.status).to.equal(201);
      expect((await call(b().api, 'GET', customers(), { 'x-api-key': key.body.api_key })).status).to.equal(200);
      expect(b().services.auth.apiKeys.holds(key.body.id), 'cached on B').to.equal(true);
      expect((await call(a().api, 'DELETE', `/api-keys/${key.body.id}`, { 'x-api-key': demo.api_key })).status).to.equal(200);
      // the notice must reach B; its clock is pinned, so the cache cannot have let the key go by itself
      const forgotten = await eventually(async () => !b().services.auth.apiKeys.holds(key.body.id), (gone) => gone, { everyMs: 10 });
      expect(forgotten, 'B forgot the key').to.equal(true);
      const refused = await call(b().api, 'GET', customers(), { 'x-api-key': key.body.api_key });
      expect(refused.status).to.equal(401);
      expect(refused.body.detail.error).to.equal('invalid_api_key');
    });

    it('a logout on one instance: the other refuses that session\'s access token at once', async function () {
      postgresOnly(this);
      const session = await call(a().api, 'POST', '/auth/login', {}, { email: demo.admin.email, password: demo.admin.password });
      const token = session.body.access_token as string;
      expect((await call(b().api, 'GET', '/auth/me', bearer(token))).status).to.equal(200);
      expect((await call(a().api, 'POST', '/auth/logout', {}, { refresh_token: session.body.refresh_token })).status).to.equal(200);
      const sid = claimsOf(token).sid as string;
      expect(await eventually(async () => b().services.auth.revocations.knows('session', sid), (known) => known, { everyMs: 10 }), 'B heard the logout').to.equal(true);
      const refused = await call(b().api, 'GET', '/auth/me', bearer(token));
      expect(refused.status).to.equal(401);
      expect(withoutRequestId(refused.body)).to.deep.equal(REFUSED);
    });

    it('an OAuth client revoked on one instance: the other refuses its live token at once', async function () {
      postgresOnly(this);
      const { clientId, token } = await clientToken(a().api, demo.api_key);
      expect((await call(b().api, 'GET', customers(), bearer(token))).status).to.equal(200);
      expect((await call(a().api, 'DELETE', `/oauth2/clients/${clientId}`, { 'x-api-key': demo.api_key })).status).to.equal(200);
      expect(await eventually(async () => b().services.auth.revocations.knows('oauth_client', clientId), (known) => known, { everyMs: 10 }), 'B heard the revocation').to.equal(true);
      expect((await call(b().api, 'GET', customers(), bearer(token))).status).to.equal(401);
    });

    it('a listener cut off hears again: what was revoked while it was away is reloaded on reconnecting', async function () {
      postgresOnly(this);
      const session = await call(a().api, 'POST', '/auth/login', {}, { email: demo.admin.email, password: demo.admin.password });
      const sid = claimsOf(session.body.access_token).sid as string;
      // cut every listener of this database, then end the session while they are away
      const admin = a().services.readModels;
      const cut: Json[] = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN credential_revoked' AND pid <> pg_backend_pid()`,
      );
      expect(cut.length, 'both instances listen').to.equal(2);
      expect((await call(a().api, 'POST', '/auth/logout', {}, { refresh_token: session.body.refresh_token })).status).to.equal(200);
      expect(await eventually(async () => b().services.auth.revocations.knows('session', sid), (known) => known, { everyMs: 20 }), 'B learned it').to.equal(true);
      expect((await call(b().api, 'GET', '/auth/me', bearer(session.body.access_token))).status).to.equal(401);
      // and listens again: the next revocation is heard as a notice
      const next = await call(a().api, 'POST', '/auth/login', {}, { email: demo.admin.email, password: demo.admin.password });
      const listening = async () => ((await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN credential_revoked'`)) as Json[])[0]?.n;
      expect(await eventually(listening, (n) => n === 2)).to.equal(2);
      expect((await call(a().api, 'POST', '/auth/logout', {}, { refresh_token: next.body.refresh_token })).status).to.equal(200);
      const nextSid = claimsOf(next.body.access_token).sid as string;
      expect(await eventually(async () => b().services.auth.revocations.knows('session', nextSid), (known) => known, { everyMs: 10 })).to.equal(true);
    });

    it('an instance started after a revocation refuses what was revoked before it started (PGlite too: a restart)', async () => {
      const session = await call(a().api, 'POST', '/auth/login', {}, { email: demo.admin.email, password: demo.admin.password });
      const { clientId, token } = await clientToken(a().api, demo.api_key);
      expect((await call(a().api, 'POST', '/auth/logout', {}, { refresh_token: session.body.refresh_token })).status).to.equal(200);
      expect((await call(a().api, 'DELETE', `/oauth2/clients/${clientId}`, { 'x-api-key': demo.api_key })).status).to.equal(200);
      const sid = claimsOf(session.body.access_token).sid as string;
      const ended = async () => ((await a().services.readModels.query('SELECT revoked_at FROM refresh_families WHERE family_id = $1', [sid])) as Json[])[0]?.revoked_at;
      expect(await eventually(ended, Boolean), 'the read model shows the logout').to.be.instanceOf(Date);
      const late = await startInstance(database, pem, pinned);
      instances.push(late);
      expect((await call(late.api, 'GET', '/auth/me', bearer(session.body.access_token))).status).to.equal(401);
      expect((await call(late.api, 'GET', customers(), bearer(token))).status).to.equal(401);
    });
  });
});
