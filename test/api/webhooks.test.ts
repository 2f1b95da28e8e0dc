import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import type { Actor } from '../../commands/shared/actor.ts';
import { webhookPingStream, webhooksStream } from '../../events/webhooks.ts';
import { requestTestPing, type WebhookCommandDeps } from '../../src/modules/webhooks/endpoints.ts';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';
import type { Resolver } from '../../src/platform/http-client/target-guard.ts';

type Webhook = { id: string; url: string; events: string; is_active: boolean; description: string | null; created_at: string; workspace_id: string | null; scope: string; secret?: string };

/** DNS for these tests: names under .test answer what the table says; anything else is unresolvable. */
const dns: Record<string, string[]> = {
  'hooks.public.test': ['93.184.216.34'],
  'mixed.public.test': ['93.184.216.34', '10.1.2.3'],
  'metadata.public.test': ['169.254.169.254'],
  'v6.public.test': ['2606:4700::1111'],
  // internal names, as an attacker would probe them (issue 37: a refusal must not say what they resolve to)
  'localhost': ['127.0.0.1', '::1'],
  'db.internal.test': ['10.23.45.67'],
  'nas.internal.test': ['fd12:3456:789a::17'],
  'cgnat.internal.test': ['100.72.14.3'],
  // public when registered, private later (changed by a test)
  'rebind.public.test': ['93.184.216.34'],
};
/** Every address the stub can answer: none of them may appear in an answer to a client. */
const resolvedAddresses = () => [...new Set(Object.values(dns).flat())];
const resolve: Resolver = async (host) => {
  const answers = dns[host];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('webhook management over HTTP (/connect/webhooks, /workspaces/{id}/webhooks)', function () {
  this.timeout(180_000);
  let svc: TestService;

  before(async () => {
    // loopback stays refused here: this suite checks the guard as production runs it
    svc = await startTestService({ resolve, webhooks: { allowLoopbackTargets: false } });
  });
  after(async () => svc?.close());

  const create = (body: Record<string, unknown>, headers: Record<string, string> = {}) => svc.call('POST', '/connect/webhooks', body, headers);
  const asOrganisation = (apiKey: string) => ({ 'x-api-key': apiKey });

  it('creates an endpoint for the organisation: 201 with the whsec_ secret once, the default events resolved and stored, then lists it without the secret', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business');
    const made = await create({ url: 'https://hooks.public.test/in', description: 'ERP' }, asOrganisation(org.apiKey));
    expect(made.status).to.equal(201);
    const hook = made.body as Webhook;
    expect(hook.secret).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(hook).to.include({
      url: 'https://hooks.public.test/in', events: 'invoice.delivered,invoice.rejected,invoice.fs_acknowledged,invoice.fs_rejected', is_active: true,
      description: 'ERP', workspace_id: null, scope: 'organisation',
    });
    expect(made.headers.get('location')).to.equal(`/api/v1/connect/webhooks/${hook.id}`);
    const list = await svc.call('GET', '/connect/webhooks', undefined, asOrganisation(org.apiKey));
    expect(list.status).to.equal(200);
    const { secret: _secret, ...withoutSecret } = hook;
    expect(list.body).to.deep.equal({ items: [withoutSecret], total: 1, page: 1, page_size: 20 });
    expect(JSON.stringify(list.body)).not.to.contain('whsec_');
  });

  it('stores the events asked for, including a type that is never emitted', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business');
    const made = await create({ url: 'https://hooks.public.test/in', events: 'invoice.created, client.linked' }, asOrganisation(org.apiKey));
    expect([made.status, made.body.events]).to.deep.equal([201, 'invoice.created,client.linked']);
    const bad = await create({ url: 'https://hooks.public.test/in', events: 'invoice.created,,x' }, asOrganisation(org.apiKey));
    expect(bad.status).to.equal(422);
    expect(bad.body.detail[0].loc).to.deep.equal(['body', 'events']);
  });

  it('refuses a JWT (a signed-in admin) with 401 api_key_required on every management route', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business', ['admin']);
    const login = await fetch(`${svc.api}/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: org.users.admin!.email, password: org.users.admin!.password }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const asUser = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${svc.api}${path}`, {
        method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { detail?: { error?: string } } };
    };
    const hook = (await create({ url: 'https://hooks.public.test/in' }, asOrganisation(org.apiKey))).body as Webhook;
    for (const [method, path, body] of [
      ['POST', '/connect/webhooks', { url: 'https://hooks.public.test/in' }], ['GET', '/connect/webhooks', undefined],
      ['DELETE', `/connect/webhooks/${hook.id}`, undefined], ['POST', `/connect/webhooks/${hook.id}/rotate-secret`, undefined],
      ['POST', `/connect/webhooks/${hook.id}/test`, undefined], ['GET', `/connect/webhooks/${hook.id}/deliveries`, undefined],
      ['POST', `/workspaces/${org.workspaceId}/webhooks`, { url: 'https://hooks.public.test/in' }],
    ] as const) {
      const answer = await asUser(method, path, body);
      expect([answer.status, answer.body?.detail?.error], `${method} ${path}`).to.deep.equal([401, 'api_key_required']);
    }
  });

  it('refuses hosts that are not public with 422 webhook_url_not_allowed: private, loopback, link-local, literals in every form, mixed answers, unresolvable', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business');
    for (const url of [
      'http://10.0.0.1/', 'http://192.168.1.10/hook', 'http://172.16.5.5/', 'http://127.0.0.1:8080/', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data/',
      'http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.0.0.1/', 'http://[::ffff:127.0.0.1]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://100.64.0.1/',
      'http://[fc00::1]/', 'http://[fe80::1]/', 'http://0.0.0.0/', 'http://224.0.0.1/', 'https://mixed.public.test/', 'https://metadata.public.test/',
      'https://nowhere.invalid/',
    ]) {
      const answer = await create({ url }, asOrganisation(org.apiKey));
      expect([answer.status, answer.body?.detail?.error], url).to.deep.equal([422, 'webhook_url_not_allowed']);
    }
    expect((await create({ url: 'https://v6.public.test/' }, asOrganisation(org.apiKey))).status).to.equal(201);
    expect((await create({ url: 'ftp://hooks.public.test/' }, asOrganisation(org.apiKey))).status).to.equal(422);
  });

  it('says why a host is refused in general terms only, never the address a name resolved to (no internal DNS through our answers)', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business');
    for (const [url, reason, words] of [
      ['http://localhost/', 'loopback', 'the host resolves to a loopback address'],
      ['http://localhost:8080/admin', 'loopback', 'the host resolves to a loopback address'],
      ['https://db.internal.test/', 'private', 'the host resolves to a private network address'],
      ['https://nas.internal.test/', 'private', 'the host resolves to a private network address'],
      ['https://mixed.public.test/', 'private', 'the host resolves to a private network address'],
      ['https://metadata.public.test/', 'link_local', 'the host resolves to a link-local address'],
      ['https://cgnat.internal.test/', 'not_public', 'the host resolves to an address that is not public'],
      ['https://nowhere.internal.test/', 'unresolvable', 'the host does not resolve'],
    ] as const) {
      const answer = await create({ url }, asOrganisation(org.apiKey));
      expect([answer.status, answer.body.detail.error, answer.body.detail.reason], url).to.deep.equal([422, 'webhook_url_not_allowed', reason]);
      expect(answer.body.detail.message, url).to.include(words);
      const text = JSON.stringify(answer.body);
      for (const address of resolvedAddresses()) expect(text, url).not.to.include(address);
      expect(text, url).not.to.match(/ENOTFOUND|getaddrinfo/);
    }
  });

  it('a host that turns private after registration: the test ping\'s attempt is blocked and its record names no address', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business');
    const hook = (await create({ url: 'https://rebind.public.test/in' }, asOrganisation(org.apiKey))).body as Webhook;
    dns['rebind.public.test'] = ['10.66.77.88'];
    try {
      const fired = await svc.call('POST', `/connect/webhooks/${hook.id}/test`, undefined, asOrganisation(org.apiKey));
      expect(fired.status).to.equal(202);
      expect(JSON.stringify(fired.body)).not.to.include('10.66.77.88');
      const deliveries = await eventually(
        () => svc.call('GET', `/connect/webhooks/${hook.id}/deliveries`, undefined, asOrganisation(org.apiKey)),
        (r) => (r.body.items as { outcome: string }[]).length > 0,
      );
      expect(deliveries.body.items.map((d: { outcome: string; http_status: number | null }) => [d.outcome, d.http_status])).to.deep.equal([['blocked', null]]);
      const text = JSON.stringify([deliveries.body, (await svc.call('GET', '/connect/webhooks', undefined, asOrganisation(org.apiKey))).body]);
      for (const address of resolvedAddresses()) expect(text).not.to.include(address);
    } finally {
      dns['rebind.public.test'] = ['93.184.216.34'];
    }
  });

  it('allows 10 active endpoints: 20 parallel creates at 9 active leave exactly one winner, the rest 409 webhook_limit_reached', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business');
    for (let i = 0; i < 9; i++) expect((await create({ url: `https://hooks.public.test/${i}` }, asOrganisation(org.apiKey))).status).to.equal(201);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ url: `https://hooks.public.test/race-${i}` }, asOrganisation(org.apiKey))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).to.have.length(1);
    expect(statuses.filter((s) => s === 409)).to.have.length(19);
    expect(answers.find((a) => a.status === 409)?.body.detail).to.deep.include({ error: 'webhook_limit_reached', limit: 10, active: 10 });
    const list = (await svc.call('GET', '/connect/webhooks', undefined, asOrganisation(org.apiKey))).body.items as Webhook[];
    expect(list.filter((w) => w.is_active)).to.have.length(10);
    // a deletion frees a place
    expect((await svc.call('DELETE', `/connect/webhooks/${list[0]!.id}`, undefined, asOrganisation(org.apiKey))).status).to.equal(200);
    expect((await create({ url: 'https://hooks.public.test/after' }, asOrganisation(org.apiKey))).status).to.equal(201);
  });

  it('deletes softly (twice answers the same), rotates a secret once per call, and refuses both on a deleted endpoint', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business');
    const hook = (await create({ url: 'https://hooks.public.test/in' }, asOrganisation(org.apiKey))).body as Webhook;
    const rotated = await svc.call('POST', `/connect/webhooks/${hook.id}/rotate-secret`, undefined, asOrganisation(org.apiKey));
    expect(rotated.status).to.equal(200);
    expect(rotated.body.secret).to.match(/^whsec_/).and.not.equal(hook.secret);
    const deleted = await svc.call('DELETE', `/connect/webhooks/${hook.id}`, undefined, asOrganisation(org.apiKey));
    expect([deleted.status, deleted.body.is_active]).to.deep.equal([200, false]);
    expect((await svc.call('DELETE', `/connect/webhooks/${hook.id}`, undefined, asOrganisation(org.apiKey))).status).to.equal(200);
    for (const path of ['rotate-secret', 'test']) {
      const refused = await svc.call('POST', `/connect/webhooks/${hook.id}/${path}`, undefined, asOrganisation(org.apiKey));
      expect([refused.status, refused.body.detail.error], path).to.deep.equal([409, 'webhook_inactive']);
    }
    const list = (await svc.call('GET', '/connect/webhooks', undefined, asOrganisation(org.apiKey))).body.items as Webhook[];
    expect(list.map((w) => [w.id, w.is_active])).to.deep.equal([[hook.id, false]]);
  });

  it('a test ping has a stream of its own: the organisation\'s endpoints stream does not grow with pings, and a resumed request pings once', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business');
    const hook = (await create({ url: 'https://hooks.public.test/in' }, asOrganisation(org.apiKey))).body as Webhook;
    const endpoints = async () => (await svc.services.store.readStream(webhooksStream(org.organisationId))).length;
    const before = await endpoints();
    const fired = await Promise.all([1, 2, 3].map(() => svc.call('POST', `/connect/webhooks/${hook.id}/test`, undefined, asOrganisation(org.apiKey))));
    expect(fired.map((f) => f.status)).to.deep.equal([202, 202, 202]);
    expect(new Set(fired.map((f) => f.body.event_id)).size).to.equal(3);
    expect(await endpoints()).to.equal(before);

    // a request resumed after its first run wrote the ping mints the same ping id: nothing more is written
    const pingId = crypto.randomUUID();
    const unused = () => { throw new Error('a ping needs no secret and no target check'); };
    const deps = { ...svc.services, ids: { next: () => pingId }, secrets: { box: unused }, checkTarget: unused } as unknown as WebhookCommandDeps;
    const request = { actor: { type: 'api_key', id: 'k', organisationId: org.organisationId } as Actor, requestId: 'r', endpointId: hook.id };
    const first = await requestTestPing(deps, request);
    const again = await requestTestPing(deps, request);
    expect([first.pingId, again.pingId]).to.deep.equal([pingId, pingId]);
    expect(first.position).not.to.equal(null);
    expect(again.position).to.equal(null);
    expect((await svc.services.store.readStream(webhookPingStream(pingId))).map((e) => e.type)).to.deep.equal(['WebhookTestRequested']);
    expect(await endpoints()).to.equal(before);
  });

  it('another organisation\'s endpoint is 404 webhook_not_found on every route; another organisation\'s workspace is 404 workspace_not_found', async () => {
    const mine = await createTestOrganisation(svc.services, 'Team Business');
    const theirs = await createTestOrganisation(svc.services, 'Team Business');
    const hook = (await create({ url: 'https://hooks.public.test/in' }, asOrganisation(theirs.apiKey))).body as Webhook;
    for (const [method, path] of [['DELETE', ''], ['POST', '/rotate-secret'], ['POST', '/test'], ['GET', '/deliveries']] as const) {
      const answer = await svc.call(method, `/connect/webhooks/${hook.id}${path}`, undefined, asOrganisation(mine.apiKey));
      expect([answer.status, answer.body.detail.error], path).to.deep.equal([404, 'webhook_not_found']);
    }
    const answer = await svc.call('POST', `/workspaces/${theirs.workspaceId}/webhooks`, { url: 'https://hooks.public.test/in' }, asOrganisation(mine.apiKey));
    expect([answer.status, answer.body.detail.error]).to.deep.equal([404, 'workspace_not_found']);
    expect((await svc.call('GET', '/connect/webhooks', undefined, asOrganisation(mine.apiKey))).body).to.deep.equal({ items: [], total: 0, page: 1, page_size: 20 });
  });

  it('a workspace endpoint: created under its workspace, listed there and in /connect/webhooks, managed under either path, 404 under another workspace', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business');
    const made = await svc.call('POST', `/workspaces/${org.workspaceId}/webhooks`, { url: 'https://hooks.public.test/ws' }, asOrganisation(org.apiKey));
    expect(made.status).to.equal(201);
    expect(made.body).to.include({ workspace_id: org.workspaceId, scope: 'workspace' });
    const hook = made.body as Webhook;
    const inWorkspace = await svc.call('GET', `/workspaces/${org.workspaceId}/webhooks`, undefined, asOrganisation(org.apiKey));
    expect((inWorkspace.body.items as Webhook[]).map((w) => w.id)).to.deep.equal([hook.id]);
    expect(((await svc.call('GET', '/connect/webhooks', undefined, asOrganisation(org.apiKey))).body.items as Webhook[]).map((w) => w.id)).to.deep.equal([hook.id]);
    const deliveries = await svc.call('GET', `/workspaces/${org.workspaceId}/webhooks/${hook.id}/deliveries`, undefined, asOrganisation(org.apiKey));
    expect([deliveries.status, deliveries.body]).to.deep.equal([200, { items: [], total: 0, page: 1, page_size: 50 }]);
    const other = svc.demo.workspace_id;
    const foreign = await svc.call('DELETE', `/workspaces/${other}/webhooks/${hook.id}`, undefined, asOrganisation(org.apiKey));
    expect(foreign.status).to.equal(404);
    const deleted = await svc.call('DELETE', `/workspaces/${org.workspaceId}/webhooks/${hook.id}`, undefined, asOrganisation(org.apiKey));
    expect([deleted.status, deleted.body.is_active]).to.deep.equal([200, false]);
  });

  it('an Idempotency-Key replay of a create makes no second endpoint and, as for API keys, does not show the secret twice (409 naming the endpoint)', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business');
    const headers = { ...asOrganisation(org.apiKey), 'idempotency-key': `wh-${org.organisationId}` };
    const first = await create({ url: 'https://hooks.public.test/once' }, headers);
    const again = await create({ url: 'https://hooks.public.test/once' }, headers);
    expect(first.status).to.equal(201);
    expect(again.status).to.equal(409);
    expect(again.body.detail).to.deep.include({ error: 'idempotency_key_secret_not_replayable', original_status: 201 });
    expect(again.body.detail.resource.id).to.equal(first.body.id);
    expect(JSON.stringify(again.body)).not.to.contain('whsec_');
    expect((await svc.call('GET', '/connect/webhooks', undefined, asOrganisation(org.apiKey))).body.items).to.have.length(1);
  });
});
