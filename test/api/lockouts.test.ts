import { expect } from 'chai';
import { createTestOrganisation } from '../support/organisation.ts';
import { eventually } from '../support/poll.ts';
import { sapiError } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { WebhookReceiver, type Arrival } from '../support/webhook-receiver.ts';
import { sapiFetch } from '../sapi/auth-support.ts';

type SecurityEvent = {
  type: string; email: string | null; user_id: string | null; ip: string | null; detail: string | null; ips: string[] | null; locked_until: string | null;
  sapi_client_id: string | null; company_id: string | null; at: string;
};

/**
 * Issue 37: anybody who knows a SAPI-SK client_id (or a user's e-mail) can lock it out. The lock-out
 * stays as the spec has it, and its company sees it: a security event naming the addresses the
 * failures came from, and a webhook when subscribed. An IP allowlist on a SAPI client prevents it.
 */
describe('lock-outs are visible to the company: security log and webhook, with the addresses that caused them', function () {
  this.timeout(180_000);
  let svc: TestService;
  let hooks: WebhookReceiver;

  before(async () => {
    // the tests reach the service from loopback, which is the proxy here: X-Forwarded-For names the caller
    svc = await startTestService({ rateLimit: true, identity: { trustedProxies: ['127.0.0.1', '::1'] } });
    hooks = await WebhookReceiver.start();
  });
  after(async () => {
    await hooks?.close();
    await svc?.close();
  });

  /** An organisation (unlimited rate, so polling is never throttled) with an endpoint subscribed to both lock-outs. */
  async function subscribedOrganisation() {
    const org = await createTestOrganisation(svc.services, 'Team Custom', ['accountant']);
    const as = (method: string, path: string, body?: unknown) => svc.call(method, path, body, { 'x-api-key': org.apiKey });
    const hook = await as('POST', '/connect/webhooks', { url: hooks.url(`/hook/${org.organisationId}`), events: 'sapi_client.locked_out,user.locked_out' });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    hooks.secret = hook.body.secret;
    const arrivals = async (type: string) => {
      const mine = () => hooks.arrivals.filter((a) => a.url === `/hook/${org.organisationId}` && a.headers['x-webhook-event'] === type);
      await eventually(async () => mine().length, (n) => n > 0, { what: `${type} at the organisation's endpoint` });
      return mine();
    };
    const securityEvent = (type: string, matches: (e: SecurityEvent) => boolean = () => true) =>
      eventually(async () => ((await as('GET', '/security-events?page_size=100')).body.items as SecurityEvent[]).filter((e) => e.type === type && matches(e)),
        (found) => found.length > 0, { what: `a ${type} security event`, everyMs: 100 });
    return { org, as, arrivals, securityEvent };
  }

  const token = (client: { client_id: string }, secret: string, ip: string) =>
    sapiFetch(svc, 'POST', '/auth/token', { client_id: client.client_id, client_secret: secret, grant_type: 'client_credentials' }, { 'x-forwarded-for': ip });
  const body = (arrival: Arrival) => JSON.parse(arrival.rawBody.toString('utf8'));

  it('a SAPI-SK client locked by wrong secrets from two addresses: a security event and sapi_client.locked_out name both', async () => {
    const { org, as, arrivals, securityEvent } = await subscribedOrganisation();
    const client = (await as('POST', `/companies/${org.companyId}/sapi-clients`)).body as { client_id: string; client_secret: string };
    const codes: string[] = [];
    for (const ip of ['198.51.100.23', '198.51.100.23', '203.0.113.7', '198.51.100.23', '203.0.113.7']) codes.push(sapiError(await token(client, 'wrong', ip)).code);
    expect(codes).to.deep.equal(['SAPI-AUTH-001', 'SAPI-AUTH-001', 'SAPI-AUTH-001', 'SAPI-AUTH-001', 'SAPI-AUTH-LOCKED']);
    expect(sapiError(await token(client, client.client_secret, '192.0.2.1')).code).to.equal('SAPI-AUTH-LOCKED'); // the spec's rule stands

    const [event] = await securityEvent('SapiClientLockedOut', (e) => e.sapi_client_id === client.client_id);
    expect(event).to.include({ sapi_client_id: client.client_id, company_id: org.companyId, ip: null, email: null, user_id: null });
    expect(event!.ips).to.deep.equal(['198.51.100.23', '203.0.113.7']);
    expect(Date.parse(event!.locked_until ?? '') - Date.parse(event!.at)).to.equal(15 * 60 * 1000);

    const [arrival] = await arrivals('sapi_client.locked_out');
    expect(arrival!.svcValid).to.equal(true);
    const sent = body(arrival!);
    expect(sent).to.deep.include({ schema: 'svc.event.v1', type: 'sapi_client.locked_out', organisation_id: org.organisationId, workspace_id: org.workspaceId });
    expect(sent.resource).to.deep.equal({ type: 'sapi_client', id: client.client_id });
    expect(sent.data).to.deep.include({ sapi_client_id: client.client_id, company_id: org.companyId, failures: 5, ips: ['198.51.100.23', '203.0.113.7'] });
    expect(sent.data.locked_until).to.equal(event!.locked_until);
  });

  it('an IP allowlist on the client prevents it: wrong secrets from outside it are refused uncounted, and the client is never locked', async () => {
    const { org, as } = await subscribedOrganisation();
    const client = (await as('POST', `/companies/${org.companyId}/sapi-clients`)).body as { client_id: string; client_secret: string };
    expect((await as('PUT', `/sapi-clients/${client.client_id}/allowlist`, { cidrs: ['203.0.113.0/24'] })).status).to.equal(200);
    for (let i = 0; i < 8; i++) expect(sapiError(await token(client, 'wrong', `198.51.100.${i + 1}`)).code, `outside ${i}`).to.equal('SAPI-AUTH-IP');
    expect((await token(client, client.client_secret, '203.0.113.9')).status).to.equal(200);
    const row = await as('GET', `/sapi-clients/${client.client_id}`);
    expect(row.body.locked_until).to.equal(null);
    const stream = await svc.services.store.readStream(`sapi_client-${client.client_id}`);
    expect(stream.filter((e) => e.type.startsWith('SapiClientAuthentication') || e.type.startsWith('SapiClientLocked'))).to.deep.equal([]);
  });

  it('a user\'s sign-in locked by wrong passwords from two addresses: a security event and user.locked_out name both', async () => {
    const { org, arrivals, securityEvent } = await subscribedOrganisation();
    const user = org.users.accountant!;
    const login = (password: string, ip: string) => fetch(`${svc.api}/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify({ email: user.email, password }),
    });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await login(`Wrong-pass${i}!`, i % 3 === 2 ? '192.0.2.20' : '192.0.2.10')).status);
    expect(statuses).to.deep.equal(Array(10).fill(401));
    expect((await login(user.password, '192.0.2.30')).status).to.equal(429); // the lock-out itself is unchanged

    const [event] = await securityEvent('SignInLockedOut', (e) => e.user_id === user.id);
    expect(event).to.include({ email: user.email, user_id: user.id, detail: 'account', ip: null });
    expect(event!.ips).to.deep.equal(['192.0.2.10', '192.0.2.20']);
    expect(Date.parse(event!.locked_until ?? '')).to.be.greaterThan(Date.parse(event!.at));

    const [arrival] = await arrivals('user.locked_out');
    expect(arrival!.svcValid).to.equal(true);
    const sent = body(arrival!);
    expect(sent).to.deep.include({ type: 'user.locked_out', organisation_id: org.organisationId, workspace_id: null });
    expect(sent.resource).to.deep.equal({ type: 'user', id: user.id });
    expect(sent.data).to.deep.include({ user_id: user.id, email: user.email, scope: 'account', failures: 10, ips: ['192.0.2.10', '192.0.2.20'] });
    // refused tries while locked count nothing more: still one lock-out
    expect((await securityEvent('SignInLockedOut', (e) => e.user_id === user.id))).to.have.length(1);
  });
});
