import { Writable } from 'node:stream';
import { expect } from 'chai';
import { loadConfig } from '../../src/platform/config.ts';
import { createLogger, wantsPretty } from '../../src/platform/logging.ts';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

const UPGRADE_URL = 'https://billing.errors-test.invalid/plans/upgrade';

/** Issue 40, part 5: what an integrator sees of a failure, and what the operator's log says of it. */
describe('errors and the request log', function () {
  this.timeout(120_000);
  let svc: TestService;
  const logged: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logged.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const year = new Date().getUTCFullYear();
  const line = { item_name: 'Servis', quantity: '1', unit_price: '10.00', vat_rate: '23' };
  const buyer = { name: 'Odberateľ s.r.o.', vat_id: 'SK2020273893', city: 'Nitra' };
  let company: string;
  const invoices = () => `/companies/${company}/invoices`;
  const requestLine = (requestId: string) => logged.find((l) => l['request_id'] === requestId && l['msg'] === 'request');
  const raw = (path: string, init: RequestInit & { headers?: Record<string, string> }) => fetch(`${svc.root}${path}`, init);

  before(async () => {
    svc = await startTestService({ log: createLogger('info', sink), rateLimit: true, upgradeUrl: UPGRADE_URL });
    company = svc.demo.companies[0]!.id;
  });
  after(async () => svc?.close());

  describe('request_id in every error body, the X-Request-Id header\'s value', () => {
    it('native: 401, 404, 413 and 422 carry it at the top level, beside the spec\'s detail', async () => {
      const unauthenticated = await raw(`/api/v1${invoices()}`, { headers: { 'x-request-id': 'err-401' } });
      const missing = await svc.call('GET', `${invoices()}/00000000-0000-4000-8000-000000000000`, undefined, { 'x-request-id': 'err-404' });
      const large = await svc.call('POST', '/customers', { name: 'x'.repeat(1_100_000) }, { 'x-request-id': 'err-413' });
      const invalid = await svc.call('POST', invoices(), { lines: [] }, { 'x-request-id': 'err-422' });
      const answers = [[await unauthenticated.json(), 401, 'err-401'], [missing.body, missing.status, 'err-404'], [large.body, large.status, 'err-413'], [invalid.body, invalid.status, 'err-422']] as const;
      expect(answers.map(([body, status, id]) => [status, (body as { request_id: string }).request_id, id])).to.deep.equal([
        [401, 'err-401', 'err-401'], [404, 'err-404', 'err-404'], [413, 'err-413', 'err-413'], [422, 'err-422', 'err-422'],
      ]);
      expect(missing.body.detail.error).to.equal('invoice_not_found');
      expect(invalid.body.detail).to.be.an('array');
    });

    it('SAPI-SK: inside error, beside correlation_id (the same value)', async () => {
      const res = await raw('/sapi/document/send', { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'sapi-401' }, body: '{}' });
      expect(res.status).to.equal(401);
      const body = (await res.json()) as { error: Record<string, unknown> };
      expect(body.error).to.include({ code: 'SAPI-AUTH-001', correlation_id: 'sapi-401', request_id: 'sapi-401' });
      expect(res.headers.get('x-request-id')).to.equal('sapi-401');
    });

    it('429: the top-level rate-limit body carries it, and the configured upgrade_url', async () => {
      const org = await createTestOrganisation(svc.services, 'Solo Free');
      let refused: Response | undefined;
      // Solo Free: a burst of 15, then 10 a minute
      for (let i = 0; i < 40 && !refused; i++) {
        const res = await raw('/api/v1/customers', { headers: { 'x-api-key': org.apiKey } });
        if (res.status === 429) refused = res;
      }
      expect(refused, 'no 429 within 40 requests').to.not.equal(undefined);
      const body = (await refused!.json()) as Record<string, unknown>;
      expect(body).to.include({ error: 'rate_limit_exceeded', plan: 'Solo Free', upgrade_url: UPGRADE_URL, request_id: refused!.headers.get('x-request-id') });
    });
  });

  it('upgrade_url of a plan-gated refusal is the configured one (UPGRADE_URL), never a placeholder', async () => {
    const org = await createTestOrganisation(svc.services, 'Solo Free');
    const res = await raw(`/api/v1/companies/${org.companyId}/invoices/export.csv`, { headers: { 'x-api-key': org.apiKey } });
    expect(res.status).to.equal(403);
    const body = (await res.json()) as { detail: Record<string, unknown> };
    expect(body.detail).to.include({ error: 'feature_not_available', upgrade_url: UPGRADE_URL });
  });

  describe('bad JSON says where and why', () => {
    const badJson = '{\n  "issue_date": "2026-11-20",\n  "lines": [1, 2,]\n}';

    it('native: 400 malformed_json with line, column, offset and a short reason', async () => {
      const res = await raw(`/api/v1${invoices()}`, { method: 'POST', headers: { 'x-api-key': svc.demo.api_key, 'content-type': 'application/json' }, body: badJson });
      expect(res.status).to.equal(400);
      const body = (await res.json()) as { detail: Record<string, unknown> };
      expect(body.detail).to.include({ error: 'malformed_json', line: 3, column: 18, offset: 49, reason: 'a comma before "]": remove the trailing comma' });
      expect(body.detail['message']).to.equal('request body is not valid JSON: line 3, column 18: a comma before "]": remove the trailing comma');
    });

    it('SAPI-SK: SAPI-VAL-001 whose body detail has the same position', async () => {
      const res = await raw('/sapi/auth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"client_id": "a",\n "client_secret": \'b\'}' });
      expect(res.status).to.equal(400);
      const body = (await res.json()) as { error: { code: string; message: string; details: Record<string, unknown>[] } };
      expect(body.error.code).to.equal('SAPI-VAL-001');
      expect(body.error.details).to.deep.equal([{ field: 'body', issue: 'malformed_json', line: 2, column: 19, offset: 37, reason: 'strings take double quotes, not single quotes' }]);
      expect(body.error.message).to.include('line 2, column 19');
    });
  });

  describe('due_date before issue_date', () => {
    it('is refused on create with 422 at body.due_date, and nothing is written', async () => {
      const before = (await svc.call('GET', invoices())).body.total as number;
      const res = await svc.call('POST', invoices(), { issue_date: `${year}-03-15`, due_date: `${year}-03-14`, buyer, lines: [line] });
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.detail).to.deep.equal([{ loc: ['body', 'due_date'], msg: `due_date ${year}-03-14 is before issue_date ${year}-03-15`, type: 'value_error', input: `${year}-03-14` }]);
      expect((await svc.call('GET', invoices())).body.total).to.equal(before);
    });

    it('is refused on replace (PUT) with 422 at body.due_date; the same day is taken', async () => {
      const created = await svc.call('POST', invoices(), { issue_date: `${year}-03-15`, due_date: `${year}-03-15`, buyer, lines: [line] });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const put = await svc.call('PUT', `${invoices()}/${created.body.id}`, { issue_date: `${year}-04-01`, due_date: `${year}-03-31`, buyer, lines: [line] }, { 'if-match': `"${created.body.version}"` });
      expect(put.status, JSON.stringify(put.body)).to.equal(422);
      expect(put.body.detail.map((i: { loc: unknown }) => i.loc)).to.deep.equal([['body', 'due_date']]);
      expect((await svc.call('GET', `${invoices()}/${created.body.id}`)).body).to.include({ issue_date: `${year}-03-15`, due_date: `${year}-03-15` });
    });
  });

  it('logs one line per request naming the route template, status, error code, caller kind and duration', async () => {
    await svc.call('GET', `${invoices()}/00000000-0000-4000-8000-000000000000`, undefined, { 'x-request-id': 'log-404' });
    await svc.call('GET', invoices(), undefined, { 'x-request-id': 'log-200' });
    await raw('/api/v1/health', { headers: { 'x-request-id': 'log-public' } });
    await raw(`/api/v1${invoices()}`, { headers: { 'x-request-id': 'log-401', 'x-api-key': 'svc_unknown' } });
    const pick = (id: string) => {
      const found = requestLine(id);
      expect(found, id).to.not.equal(undefined);
      const { method, route, status, error, caller, ms } = found!;
      expect(ms, id).to.be.a('number');
      return { method, route, status, error, caller };
    };
    expect(pick('log-404')).to.deep.equal({ method: 'GET', route: '/companies/{company_id}/invoices/{invoice_id}', status: 404, error: 'invoice_not_found', caller: 'api_key' });
    expect(pick('log-200')).to.deep.equal({ method: 'GET', route: '/companies/{company_id}/invoices', status: 200, error: undefined, caller: 'api_key' });
    expect(pick('log-public')).to.deep.equal({ method: 'GET', route: '/health', status: 200, error: undefined, caller: 'public' });
    expect(pick('log-401')).to.deep.include({ status: 401, error: 'invalid_api_key', caller: 'refused' });
  });
});

describe('log format and upgrade URL configuration', () => {
  it('logs pretty on a terminal and JSON otherwise; LOG_FORMAT=json or pretty decides outright', () => {
    expect([wantsPretty('auto', undefined, true), wantsPretty('auto', undefined, false)]).to.deep.equal([true, false]);
    expect([wantsPretty('json', undefined, true), wantsPretty('pretty', undefined, false)]).to.deep.equal([false, true]);
    // a destination given (a test's sink, the CLI's stderr) always gets JSON
    expect(wantsPretty('pretty', new Writable(), true)).to.equal(false);
    expect(loadConfig({}).logFormat).to.equal('auto');
    expect(loadConfig({ LOG_FORMAT: 'JSON' }).logFormat).to.equal('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).to.throw(/LOG_FORMAT/);
  });

  it('UPGRADE_URL, else the public base URL, else where the service listens, + the plans guide it serves', () => {
    expect(loadConfig({ UPGRADE_URL: 'https://billing.example.sk/upgrade' }).upgradeUrl).to.equal('https://billing.example.sk/upgrade');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://einvoice.example.sk/app' }).upgradeUrl).to.equal('https://einvoice.example.sk/app/guides/identity#plans-features-and-the-monthly-quota');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).upgradeUrl).to.equal('http://0.0.0.0:9000/guides/identity#plans-features-and-the-monthly-quota');
    expect(() => loadConfig({ UPGRADE_URL: 'billing/upgrade' })).to.throw(/UPGRADE_URL/);
  });
});
