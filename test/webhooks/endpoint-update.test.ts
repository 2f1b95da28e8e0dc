import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import type { Resolver } from '../../src/platform/http-client/target-guard.ts';
import { withoutRequestId } from '../support/request-id.ts';

type Webhook = { id: string; url: string; events: string; is_active: boolean; description: string | null; version: number; secret?: string };

/** DNS for this suite: these names answer what the table says, anything else is unresolvable; loopback receivers are allowed. */
const dns: Record<string, string[]> = {
  'hooks.public.test': ['93.184.216.34'],
  'db.internal.test': ['10.23.45.67'],
  'metadata.public.test': ['169.254.169.254'],
};
const resolve: Resolver = async (host) => {
  const answers = dns[host];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: 4 }));
};

/** PATCH /connect/webhooks/{id}, and `events` as a string or an array, through the running service. */
describe('editing a webhook endpoint over HTTP (PATCH /connect/webhooks/{id})', function () {
  this.timeout(180_000);
  let svc: TestService;
  const receivers: WebhookReceiver[] = [];
  const toDelete: string[] = [];

  before(async () => {
    svc = await startTestService({ resolve });
  });
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await svc?.close();
  });
  afterEach(async () => {
    for (const id of toDelete.splice(0)) await svc.call('DELETE', `/connect/webhooks/${id}`);
  });

  async function create(body: Record<string, unknown>): Promise<Webhook> {
    const made = await svc.call('POST', '/connect/webhooks', body);
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    toDelete.push(made.body.id);
    return made.body as Webhook;
  }
  const patch = (id: string, body: unknown, headers: Record<string, string> = {}) => svc.call('PATCH', `/connect/webhooks/${id}`, body, headers);
  const receiver = async () => {
    const r = await WebhookReceiver.start();
    receivers.push(r);
    return r;
  };

  it('a PATCHed endpoint receives the next event at its new url, by its new events list', async () => {
    const before = await receiver();
    const after = await receiver();
    const hook = await create({ url: before.url(), events: 'invoice.delivered', description: 'ERP' });
    expect(hook.version).to.equal(0);
    after.secret = hook.secret; // the receiver verifies on arrival, as a consumer would
    const changed = await patch(hook.id, { url: after.url(), events: ['invoice.created', 'invoice.queued'] }, { 'if-match': '"0"' });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.include({ id: hook.id, url: after.url(), events: 'invoice.created,invoice.queued', description: 'ERP', is_active: true, version: 1 });
    expect(changed.headers.get('etag')).to.equal('"1"');
    // read-your-writes: the list shows it at once
    const listed = (await svc.call('GET', '/connect/webhooks')).body.items.find((w: Webhook) => w.id === hook.id);
    expect(listed).to.deep.equal(changed.body);

    const created = await svc.call('POST', `/companies/${svc.demo.companies[0]!.id}/invoices`, {
      issue_date: '2026-11-24', due_date: '2026-12-08',
      buyer: { name: 'Iná s.r.o.', vat_id: 'SK2020000004', street: 'Hlavná 1', city: 'Košice', postal_code: '04001', country_code: 'SK' },
      lines: [{ item_name: 'Služba', quantity: '1', unit_price: '100.00', vat_rate: '23' }],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const [arrival] = await after.waitFor(1);
    expect(arrival!.headers['x-webhook-event']).to.equal('invoice.created');
    expect(JSON.parse(arrival!.rawBody.toString('utf8')).data.invoice_id).to.equal(created.body.id);
    expect(arrival!.svcValid, 'signed with the endpoint\'s secret').to.equal(true);
    expect(before.count).to.equal(0);
    // the event is listed under the endpoint it went to
    await eventually(async () => (await svc.call('GET', `/connect/webhooks/${hook.id}/events`)).body.items as { event_type: string }[], (items) => items.some((e) => e.event_type === 'invoice.created'), {
      everyMs: 500, what: 'invoice.created listed',
    });
  });

  it('checks a new URL exactly as create does: the same status, code and reason for the same URL', async () => {
    const hook = await create({ url: 'https://hooks.public.test/in' });
    for (const url of ['ftp://hooks.public.test/', 'not a url', 'https://user:pw@hooks.public.test/', 'https://db.internal.test/', 'https://metadata.public.test/', 'http://10.0.0.1/', 'https://nowhere.invalid/']) {
      const atCreate = await svc.call('POST', '/connect/webhooks', { url });
      const atPatch = await patch(hook.id, { url });
      expect(atPatch.status, url).to.be.oneOf([422]);
      expect([atPatch.status, withoutRequestId(atPatch.body)], url).to.deep.equal([atCreate.status, withoutRequestId(atCreate.body)]);
    }
    const refused = await patch(hook.id, { url: 'https://db.internal.test/' });
    expect([refused.body.detail.error, refused.body.detail.reason]).to.deep.equal(['webhook_url_not_allowed', 'private']);
    expect(JSON.stringify(refused.body)).not.to.contain('10.23.45.67');
    // nothing was written: the endpoint is as it was
    const listed = (await svc.call('GET', '/connect/webhooks')).body.items.find((w: Webhook) => w.id === hook.id);
    expect(listed).to.include({ url: 'https://hooks.public.test/in', version: 0 });
  });

  it('If-Match: a stale version is 412 version_mismatch with the current one; the current one or none is applied; a malformed one is 400', async () => {
    const hook = await create({ url: 'https://hooks.public.test/in' });
    expect((await patch(hook.id, { description: 'first' })).body.version).to.equal(1);
    const stale = await patch(hook.id, { description: 'second' }, { 'if-match': '0' });
    expect([stale.status, stale.body.detail.error, stale.body.detail.current_version]).to.deep.equal([412, 'version_mismatch', 1]);
    const current = await patch(hook.id, { description: 'second' }, { 'if-match': '"1"' });
    expect([current.status, current.body.description, current.body.version]).to.deep.equal([200, 'second', 2]);
    // the same values again change nothing: the version stays
    expect((await patch(hook.id, { description: 'second' })).body.version).to.equal(2);
    expect((await patch(hook.id, { description: 'x' }, { 'if-match': 'yesterday' })).status).to.equal(400);
  });

  it('is_active false deactivates; true turns it on again; other fields are checked as at create; another organisation\'s endpoint is 404', async () => {
    const hook = await create({ url: 'https://hooks.public.test/in' });
    const off = await patch(hook.id, { is_active: false });
    expect([off.status, off.body.is_active]).to.deep.equal([200, false]);
    expect((await svc.call('POST', `/connect/webhooks/${hook.id}/test`)).body.detail.error).to.equal('webhook_inactive');
    const on = await patch(hook.id, { is_active: true });
    expect([on.status, on.body.is_active]).to.deep.equal([200, true]);
    expect((await svc.call('POST', `/connect/webhooks/${hook.id}/test`)).status).to.equal(202);
    for (const [body, field] of [[{ events: 'invoice.created,,x' }, 'events'], [{ events: [] }, 'events'], [{ events: ['invoice created'] }, 'events'], [{ description: 'x'.repeat(501) }, 'description'], [{ is_active: 'yes' }, 'is_active'], [{ secret: 'whsec_x' }, 'secret']] as const) {
      const refused = await patch(hook.id, body);
      expect(refused.status, JSON.stringify(body)).to.equal(422);
      expect(refused.body.detail.map((d: { loc: string[] }) => d.loc.join('.')), JSON.stringify(body)).to.include(`body.${field}`);
    }
    const other = await patch(hook.id, { description: 'theirs' }, { 'x-api-key': svc.demo.second_organisation.api_key });
    expect([other.status, other.body.detail.error]).to.deep.equal([404, 'webhook_not_found']);
  });

  it('create takes events as an array as well as the spec\'s comma-separated string, and answers the string', async () => {
    const asArray = await create({ url: 'https://hooks.public.test/in', events: ['invoice.delivered', 'invoice.rejected'] });
    expect(asArray.events).to.equal('invoice.delivered,invoice.rejected');
    const asString = await create({ url: 'https://hooks.public.test/in', events: 'invoice.delivered, invoice.rejected' });
    expect(asString.events).to.equal('invoice.delivered,invoice.rejected');
    for (const events of [[], [''], ['invoice.delivered,invoice.rejected'], [1], 'invoice.created,,x']) {
      const refused = await svc.call('POST', '/connect/webhooks', { url: 'https://hooks.public.test/in', events });
      expect(refused.status, JSON.stringify(events)).to.equal(422);
      expect(refused.body.detail.map((d: { loc: string[] }) => d.loc.slice(0, 2).join('.')), JSON.stringify(events)).to.include('body.events');
    }
  });

  it('the endpoints read model rebuilds from history to the same records and versions the decider counts (If-Match after a rebuild still holds)', async () => {
    const hook = await create({ url: 'https://hooks.public.test/in' });
    await patch(hook.id, { description: 'one', events: ['invoice.created'] });
    await svc.call('POST', `/connect/webhooks/${hook.id}/rotate-secret`);
    await patch(hook.id, { is_active: false });
    await patch(hook.id, { is_active: true });
    const list = async () => (await svc.call('GET', '/connect/webhooks?page_size=100')).body.items as Webhook[];
    const before = await list();
    expect(before.find((w) => w.id === hook.id)).to.include({ version: 4, is_active: true, description: 'one', events: 'invoice.created' });
    const projector = svc.services.projections.projectors.find((p) => p.name === 'webhook-endpoints')!;
    await svc.services.projections.rebuild(projector);
    expect(await list()).to.deep.equal(before);
    expect((await patch(hook.id, { description: 'two' }, { 'if-match': '"4"' })).status).to.equal(200);
  });
});
