import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '../../src/platform/logging.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** Every secret that crossed the wire during the test must be absent from every log line. */
describe('no secret in the logs', function () {
  this.timeout(120_000);
  let svc: TestService;
  let captured = '';
  const sink = new Writable({ write(chunk: Buffer, _enc, done) { captured += chunk.toString('utf8'); done(); } });

  before(async () => (svc = await startTestService({ log: createLogger('debug', sink) })));
  after(async () => svc?.close());

  it('logs requests, failures and credentials work without a password, key, token or client secret', async () => {
    const secrets: string[] = [svc.demo.admin.password, svc.demo.api_key];
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
      (await fetch(`${svc.api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })).json() as Promise<Record<string, string>>;
    const login = await post('/auth/login', { email: svc.demo.admin.email, password: svc.demo.admin.password });
    secrets.push(login.access_token as string, login.refresh_token as string);
    await post('/auth/login', { email: svc.demo.admin.email, password: 'Guessed-wrong1!' });
    secrets.push('Guessed-wrong1!');
    const refreshed = await post('/auth/refresh', { refresh_token: login.refresh_token });
    secrets.push(refreshed.access_token as string, refreshed.refresh_token as string);
    await post('/auth/refresh', { refresh_token: login.refresh_token }); // reuse: refused, logged as a 401
    const key = await svc.call('POST', '/api-keys', { name: 'logged?' });
    secrets.push(key.body.api_key);
    await svc.call('GET', '/api-keys', undefined, { 'x-api-key': 'svc_not-a-real-key-but-still-secret' });
    secrets.push('svc_not-a-real-key-but-still-secret');
    const client = await svc.call('POST', '/oauth2/clients', { name: 'logged client' });
    secrets.push(client.body.client_secret);
    const token = await fetch(`${svc.api}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${client.body.client_id}&client_secret=${client.body.client_secret}` });
    secrets.push(((await token.json()) as { access_token: string }).access_token);
    // a direct log of a credential-bearing object is redacted too (the net under "never log bodies")
    svc.services.log.warn({ headers: { authorization: `Bearer ${login.access_token}`, 'x-api-key': svc.demo.api_key }, body: { password: svc.demo.admin.password, client_secret: client.body.client_secret } }, 'careless log line');
    await new Promise((r) => setTimeout(r, 50));
    expect(captured).to.include('"request"').and.include('careless log line').and.include('[redacted]');
    for (const secret of secrets) {
      expect(secret, 'a secret from the run').to.be.a('string').with.length.greaterThan(8);
      expect(captured.includes(secret), `a secret appears in the logs: ${secret.slice(0, 6)}…`).to.equal(false);
    }
  });
});
