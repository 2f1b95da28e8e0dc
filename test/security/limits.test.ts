import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

const line = { item_name: 'Služba', quantity: '1', unit_code: 'C62', unit_price: '10.00', vat_rate: '23' };

describe('monthly invoice quota over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(async () => svc?.close());

  it('monthly quota: a Solo Free organisation issues 10 invoices; the 11th is 402 usage_limit_exceeded and stays a draft', async () => {
    const org = await createTestOrganisation(svc.services, 'Solo Free');
    const as = (method: string, path: string, body?: unknown) => svc.call(method, path, body, { 'x-api-key': org.apiKey });
    const invoices = `/companies/${org.companyId}/invoices`;
    const issue = async () => {
      const created = await as('POST', invoices, { issue_date: '2026-11-23', due_date: '2026-12-07', buyer: { name: 'Odberateľ', vat_id: 'SK2020273893', city: 'Nitra' }, lines: [line] });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return { id: created.body.id as string, answer: await as('POST', `${invoices}/${created.body.id}/mark-sent`, {}) };
    };
    for (let i = 0; i < 10; i++) expect((await issue()).answer.status).to.equal(200);
    const over = await issue();
    expect(over.answer.status).to.equal(402);
    expect(over.answer.body.detail).to.deep.include({ error: 'usage_limit_exceeded', current_plan: 'Solo Free', limit: 10, current_usage: 10 });
    expect(over.answer.body.detail.upgrade_url).to.be.a('string');
    expect((await as('GET', `${invoices}/${over.id}`)).body.status).to.equal('draft');
  });


  it('monthly quota under concurrency: 15 invoices issued at once on Solo Free give exactly 10 issued and 5 refused', async () => {
    const org = await createTestOrganisation(svc.services, 'Solo Free');
    const as = (method: string, path: string, body?: unknown) => svc.call(method, path, body, { 'x-api-key': org.apiKey });
    const invoices = `/companies/${org.companyId}/invoices`;
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) {
      const created = await as('POST', invoices, { issue_date: '2026-11-23', due_date: '2026-12-07', buyer: { name: 'Odberateľ', vat_id: 'SK2020273893', city: 'Nitra' }, lines: [line] });
      ids.push(created.body.id);
    }
    const answers = await Promise.all(ids.map((id) => as('POST', `${invoices}/${id}/mark-sent`, {})));
    expect(answers.map((a) => a.status).sort()).to.deep.equal([...Array(10).fill(200), ...Array(5).fill(402)]);
    // issuing an issued invoice again counts nothing more
    const again = await as('POST', `${invoices}/${ids[answers.findIndex((a) => a.status === 200)]}/mark-sent`, {});
    expect(again.status).to.equal(200);
  });

  it('plan-gated feature: CSV export works on Team Business and is 403 feature_not_available on Solo Free, for a key and for a user alike', async () => {
    const company = svc.demo.companies[0]!.id;
    await svc.call('POST', `/companies/${company}/invoices`, { issue_date: '2026-11-23', due_date: '2026-12-07', buyer: { name: '=HYPERLINK("x")', vat_id: 'SK2020273893', city: 'Nitra' }, lines: [line] });
    const res = await fetch(`${svc.api}/companies/${company}/invoices/export.csv`, { headers: { 'x-api-key': svc.demo.api_key } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/csv/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]); // the BOM spreadsheets need for UTF-8
    const csv = bytes.subarray(3).toString('utf8');
    expect(csv.split('\r\n')[0]).to.equal('id,invoice_number,invoice_type,status,issue_date,due_date,currency_code,supplier_name,buyer_name,buyer_vat_id,total_net,total_vat,total_gross');
    expect(csv).to.include(`"'=HYPERLINK(""x"")"`); // a formula is defused and quoted
    const free = await createTestOrganisation(svc.services, 'Solo Free', ['admin']);
    const denied = await svc.call('GET', `/companies/${free.companyId}/invoices/export.csv`, undefined, { 'x-api-key': free.apiKey });
    expect(denied.status).to.equal(403);
    expect(denied.body.detail).to.deep.include({ error: 'feature_not_available', feature: 'csv_export', current_plan: 'Solo Free' });
    const login = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: free.users.admin!.email, password: free.users.admin!.password }) });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const asUser = await svc.call('GET', `/companies/${free.companyId}/invoices/export.csv`, undefined, { 'x-api-key': '', authorization: `Bearer ${token}` });
    expect(asUser.body.detail.error).to.equal('feature_not_available');
  });
});

describe('rate limits over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;
  before(async () => (svc = await startTestService({ rateLimit: true })));
  after(async () => svc?.close());

  it('rate limit: a Solo Free key gets its burst of 15, then 429 with Retry-After and the top-level body; health is never limited', async () => {
    const org = await createTestOrganisation(svc.services, 'Solo Free');
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 17; i++) {
      const res = await fetch(`${svc.api}/companies/${org.companyId}/customers`, { headers: { 'x-api-key': org.apiKey } });
      statuses.push(res.status);
      if (res.status === 200) expect([...res.headers.keys()].filter((h) => h.startsWith('x-ratelimit'))).to.deep.equal([]);
      if (res.status === 429) limited = res;
      else await res.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 200)).to.have.length(15);
    expect(limited?.headers.get('retry-after')).to.match(/^\d+$/);
    const body = await limited?.json();
    expect(body).to.deep.include({ error: 'rate_limit_exceeded', limit: 10, plan: 'Solo Free' });
    expect(body.retry_after).to.be.a('number').greaterThan(0);
    for (let i = 0; i < 5; i++) expect((await fetch(`${svc.api}/health`)).status).to.equal(200);
  });

  it('repeated invalid API keys from one address give 429; a valid key from the same address keeps working', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await fetch(`${svc.api}/api-keys`, { headers: { 'x-api-key': `svc_wrong${i}` } })).status);
    expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(401));
    expect(statuses.slice(10)).to.deep.equal([429, 429]);
    const blocked = await fetch(`${svc.api}/api-keys`, { headers: { 'x-api-key': 'svc_wrong-again' } });
    expect(blocked.headers.get('retry-after')).to.match(/^\d+$/);
    expect(await blocked.json()).to.include({ error: 'rate_limit_exceeded' });
    expect((await fetch(`${svc.api}/api-keys`, { headers: { 'x-api-key': svc.demo.api_key } })).status).to.equal(200);
  });

  it('ten wrong passwords on one account lock it for a while (429 too_many_attempts with Retry-After), even with the right one', async () => {
    const login = (password: string) =>
      fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: svc.demo.admin.email, password }) });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await login(`Wrong-pass${i}!`)).status);
    expect(statuses).to.deep.equal(Array(10).fill(401));
    const locked = await login(svc.demo.admin.password);
    expect(locked.status).to.equal(429);
    expect(locked.headers.get('retry-after')).to.match(/^\d+$/);
    expect(((await locked.json()) as { detail: { error: string } }).detail.error).to.equal('too_many_attempts');
  });

  it('wrong current passwords on a password change count against the account: the eleventh try is 429, and sign-in is locked too', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business', ['accountant']);
    const user = org.users.accountant!;
    const signIn = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) });
    const token = ((await signIn.json()) as { access_token: string }).access_token;
    const change = (current: string) => fetch(`${svc.api}/auth/password`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ current_password: current, new_password: 'Nove-Heslo-2026!' }),
    });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await change(`Wrong-pass${i}!`)).status);
    expect(statuses).to.deep.equal(Array(10).fill(401));
    const locked = await change(user.password);
    expect(locked.status).to.equal(429);
    expect(locked.headers.get('retry-after')).to.match(/^\d+$/);
    expect(((await locked.json()) as { detail: { error: string } }).detail.error).to.equal('too_many_attempts');
    const login = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) });
    expect(login.status).to.equal(429);
  });
});

describe('rate limits shared through Redis', function () {
  this.timeout(120_000);
  const redis = { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: `test-${randomUUID()}:` };
  let a: TestService;
  let b: TestService;
  before(async () => {
    [a, b] = await Promise.all([startTestService({ rateLimit: true, redis }), startTestService({ rateLimit: true, redis })]);
  });
  after(async () => Promise.all([a?.close(), b?.close()]));

  it('two instances take from one bucket: 30 + 30 anonymous requests from one address exceed its burst of 50', async () => {
    const hit = async (svc: TestService) => (await fetch(`${svc.api}/companies/${randomUUID()}/customers`)).status;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push(await hit(a), await hit(b));
    expect(statuses.filter((s) => s === 401)).to.have.length.within(50, 52); // burst 50, plus what refilled meanwhile (30/min)
    expect(statuses.filter((s) => s === 429).length).to.be.greaterThan(7);
  });
});
