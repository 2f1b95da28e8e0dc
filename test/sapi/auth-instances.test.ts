import { expect } from 'chai';
import { pino } from 'pino';
import { loadConfig } from '../../src/platform/config.ts';
import { createDemo, type DemoCredentials } from '../../src/demo/bootstrap.ts';
import { createApp } from '../../src/doors/native/app.ts';
import { ephemeralSigningKeyPem } from '../../src/modules/identity/ephemeral-key.ts';
import { openService, type Service } from '../../src/service.ts';
import { listen } from '../api/support/http.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { sapiError } from '../support/sapi.ts';

/** One instance of the service over HTTP on a database the other shares. */
interface Instance {
  root: string;
  services: Service;
  close(): Promise<void>;
}

async function startInstance(database: TestDatabase, jwtPrivateKeyPem: string): Promise<Instance> {
  const defaults = loadConfig({ VALIDATION_ARTIFACTS_DIR: process.env.VALIDATION_ARTIFACTS_DIR });
  const config = { ...defaults, databaseUrl: database.connectionString, identity: { ...defaults.identity, rateLimit: false, jwtPrivateKeyPem } };
  const services = await openService(config, { log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), runReactors: false });
  const running = await listen(createApp(services));
  return {
    root: running.base,
    services,
    async close() {
      await running.close();
      await services.close();
    },
  };
}

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

describe('SAPI-SK credentials on two instances of one database', function () {
  this.timeout(180_000);
  let database: TestDatabase;
  const instances: Instance[] = [];
  let demo: DemoCredentials;
  before(async () => {
    database = await freshDatabase();
    const pem = await ephemeralSigningKeyPem();
    instances.push(await startInstance(database, pem), await startInstance(database, pem));
    demo = await createDemo(instances[0]!.services, `${instances[0]!.root}/api/v1`);
  });
  after(async () => {
    for (const instance of instances.reverse()) await instance.close();
    await database?.drop();
  });
  const [a, b] = [() => instances[0]!.root, () => instances[1]!.root];
  const install = async () => {
    const created = await call(`${a()}/api/v1`, 'POST', `/companies/${demo.companies[0]!.id}/sapi-clients`, undefined, { 'x-api-key': demo.api_key });
    expect(created.status).to.equal(201);
    return created.body as { client_id: string; client_secret: string };
  };
  const token = (base: string, client: { client_id: string }, secret: string) =>
    call(base, 'POST', '/sapi/auth/token', { client_id: client.client_id, client_secret: secret, grant_type: 'client_credentials' });

  it('counts failures on both toward one lock, and both refuse the locked client', async () => {
    const client = await install();
    for (const base of [a(), b(), a(), b()]) expect(sapiError(await token(base, client, 'wrong')).code).to.equal('SAPI-AUTH-001');
    expect(sapiError(await token(b(), client, 'wrong')).code).to.equal('SAPI-AUTH-LOCKED');
    for (const base of [a(), b()]) expect(sapiError(await token(base, client, client.client_secret)).code).to.equal('SAPI-AUTH-LOCKED');
  });

  it('refuses on the other instance at once a pair revoked and a client disabled on one (Postgres: every request asks)', async function () {
    // on PGlite one process owns the database, so its gate keeps rows: two instances of it are not a deployment
    if (database.kind === 'pglite') this.skip();
    const client = await install();
    const pair = (await token(a(), client, client.client_secret)).body as { access_token: string; refresh_token: string };
    const status = (base: string) => call(base, 'GET', '/sapi/auth/token/status', undefined, { authorization: `Bearer ${pair.access_token}` });
    expect((await status(b())).status).to.equal(200);
    expect((await call(a(), 'POST', '/sapi/auth/revoke', { token: pair.refresh_token })).status).to.equal(200);
    expect(sapiError(await status(b())).code).to.equal('SAPI-AUTH-001');

    const second = (await token(b(), client, client.client_secret)).body as { access_token: string };
    expect((await call(b(), 'GET', '/sapi/auth/token/status', undefined, { authorization: `Bearer ${second.access_token}` })).status).to.equal(200);
    expect((await call(`${a()}/api/v1`, 'POST', `/sapi-clients/${client.client_id}/disable`, undefined, { 'x-api-key': demo.api_key })).status).to.equal(200);
    expect(sapiError(await call(b(), 'GET', '/sapi/auth/token/status', undefined, { authorization: `Bearer ${second.access_token}` })).code).to.equal('SAPI-DISABLED');
  });
});
