import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * "Envelope of every list: items, total, page, page_size" (native-api.md, pagination): the
 * administrative lists too (API keys, OAuth clients, the security log, SAPI-SK clients, webhook
 * endpoints and their delivery attempts), not a bare `{data: []}`.
 */
describe('every list answers the spec\'s envelope and pages', function () {
  this.timeout(120_000);
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => svc?.close());

  const expectEnvelope = (body: Json, page: number, pageSize: number) => {
    expect(body).to.have.all.keys('items', 'total', 'page', 'page_size');
    expect(body).to.include({ page, page_size: pageSize });
    expect(body.items).to.be.an('array');
    expect(body.items.length).to.be.at.most(pageSize);
  };

  /** Page 1 and 2 at page_size 1 are different rows, the total is the same, and past the end is empty with the total. */
  async function pagesThrough(path: string, id: string): Promise<void> {
    const first = await svc.call('GET', `${path}?page_size=1`);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expectEnvelope(first.body, 1, 1);
    expect(first.body.total).to.be.at.least(2);
    const second = await svc.call('GET', `${path}?page=2&page_size=1`);
    expectEnvelope(second.body, 2, 1);
    expect(second.body.total).to.equal(first.body.total);
    expect(second.body.items[0][id]).to.not.equal(first.body.items[0][id]);
    const beyond = await svc.call('GET', `${path}?page=1000&page_size=1`);
    expect(beyond.body).to.deep.equal({ items: [], total: first.body.total, page: 1000, page_size: 1 });
    const all = await svc.call('GET', `${path}?page_size=100`);
    expect(all.body.items).to.have.length(all.body.total);
  }

  it('API keys', async () => {
    await svc.call('POST', '/api-keys', { name: 'second' });
    await pagesThrough('/api-keys', 'id');
    const plain = await svc.call('GET', '/api-keys');
    expectEnvelope(plain.body, 1, 20);
  });

  it('OAuth 2.0 clients', async () => {
    for (const name of ['one', 'two']) expect((await svc.call('POST', '/oauth2/clients', { name })).status).to.equal(201);
    await pagesThrough('/oauth2/clients', 'client_id');
  });

  it('the security log', async () => {
    for (let i = 0; i < 2; i++) {
      await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password-1' }) });
    }
    const log = await svc.call('GET', '/security-events');
    expectEnvelope(log.body, 1, 20);
  });

  it('SAPI-SK clients of a company', async () => {
    const company = svc.demo.companies[0]!.id;
    await svc.call('POST', `/companies/${company}/sapi-clients`);
    await pagesThrough(`/companies/${company}/sapi-clients`, 'client_id');
  });

  it('webhook endpoints and their delivery attempts', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const ids: string[] = [];
      for (let n = 0; n < 2; n++) {
        const made = await svc.call('POST', '/connect/webhooks', { url: receiver.url(), description: `hook ${n}` });
        expect(made.status, JSON.stringify(made.body)).to.equal(201);
        ids.push(made.body.id);
      }
      await pagesThrough('/connect/webhooks', 'id');
      for (let n = 0; n < 2; n++) expect((await svc.call('POST', `/connect/webhooks/${ids[0]}/test`)).status).to.equal(202);
      await eventually(async () => (await svc.call('GET', `/connect/webhooks/${ids[0]}/deliveries`)).body.total as number, (total) => total >= 2, { what: 'two attempts' });
      await pagesThrough(`/connect/webhooks/${ids[0]}/deliveries`, 'event_id');
      expectEnvelope((await svc.call('GET', `/connect/webhooks/${ids[0]}/deliveries`)).body, 1, 50);
    } finally {
      await receiver.close();
    }
  });
});
