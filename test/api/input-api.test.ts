import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';

type Issue = { loc: (string | number)[]; msg: string; type: string; input: unknown; ctx?: Record<string, unknown> };

/** Characters neither Postgres text nor XML 1.0 can carry, as a client can send them in JSON. */
const FORBIDDEN: [string, string][] = [
  ['NUL', '\u0000'],
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', '\udc00'],
  ['BEL (U+0007)', '\u0007'],
  ['ESC (U+001B)', '\u001b'],
  ['U+FFFE', '\ufffe'],
  ['U+FFFF', '\uffff'],
];

describe('hostile input over HTTP: text, query numbers and dates, deep JSON', function () {
  this.timeout(180_000);
  let svc: TestService;
  let company: string;
  let customerId: string;
  const year = String(new Date().getUTCFullYear());
  const invoices = `/companies/{c}/invoices`;
  const at = (path: string) => path.replace('{c}', company);
  const line = (over: Record<string, unknown> = {}) => ({ item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23', ...over });
  const draft = (over: Record<string, unknown> = {}) => ({ issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customerId, lines: [line()], ...over });
  const nextNumber = async () => (await svc.call('GET', `${at(invoices)}/numbering/next?year=${year}`)).body.invoice_number as string;
  const raw = async (method: string, path: string, body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${svc.api}${path}`, { method, headers: { 'x-api-key': svc.demo.api_key, 'content-type': 'application/json', ...headers }, body });
    const text = await response.text();
    return { status: response.status, text, type: response.headers.get('content-type') ?? '' };
  };

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    const customer = await svc.call('POST', `/companies/${company}/customers`, { name: 'Odberateľ Košice s.r.o.', vat_id: 'SK2020000004', city: 'Košice' });
    customerId = customer.body.id;
  });
  after(async () => svc?.close());

  const expectForbiddenText = (res: { status: number; body: { detail: Issue[] } }, loc: (string | number)[]) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    const issue = res.body.detail.find((i) => i.type === 'string_forbidden_character');
    expect(issue, JSON.stringify(res.body)).to.not.equal(undefined);
    expect(issue!.loc).to.deep.equal(loc);
  };

  describe('text the database or XML cannot carry (422 with loc, nothing written)', () => {
    for (const [name, ch] of FORBIDDEN) {
      it(`refuses ${name} in an invoice line's item_name, the note and a party name, consuming no number`, async () => {
        const before = await nextNumber();
        const inLine = await svc.call('POST', at(invoices), draft({ lines: [line(), line({ item_name: `Zvonček${ch}` })] }));
        expectForbiddenText(inLine, ['body', 'lines', 1, 'item_name']);
        expectForbiddenText(await svc.call('POST', at(invoices), draft({ note: `a${ch}b` })), ['body', 'note']);
        expectForbiddenText(await svc.call('POST', at(invoices), draft({ customer_id: undefined, buyer: { name: `X${ch}`, vat_id: '' } })), ['body', 'buyer', 'name']);
        expect(await nextNumber()).to.equal(before);
      });
    }

    it('refuses a forbidden character in an object key, wherever it is', async () => {
      const res = await svc.call('POST', at(invoices), draft({ lines: [line({ ['bad\u0000key']: 1 })] }));
      expectForbiddenText(res, ['body', 'lines', 0, 'bad\u0000key']);
    });

    it('still serves well-formed UBL: an accepted invoice never carries a forbidden character', async () => {
      const created = await svc.call('POST', at(invoices), draft({ lines: [line({ item_name: 'Tab\tand\nnewline are fine ✓ 😀' })] }));
      expect(created.status).to.equal(201);
      const ubl = await fetch(`${svc.api}${at(invoices)}/${created.body.id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } });
      expect(ubl.status).to.equal(200);
      expect(await ubl.text()).to.include('😀');
    });

    it('refuses it in customer name and note, writing no customer', async () => {
      const before = (await svc.call('GET', `/companies/${company}/customers?page_size=100`)).body.total;
      expectForbiddenText(await svc.call('POST', `/companies/${company}/customers`, { name: 'N\u0000', vat_id: '' }), ['body', 'name']);
      expectForbiddenText(await svc.call('POST', `/companies/${company}/customers`, { name: 'Fine', vat_id: '', note: '\ud800' }), ['body', 'note']);
      expect((await svc.call('GET', `/companies/${company}/customers?page_size=100`)).body.total).to.equal(before);
    });

    it('refuses it in login email, API key and OAuth client names', async () => {
      const login = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'a\u0000@b.sk', password: 'x' }) });
      expectForbiddenText({ status: login.status, body: await login.json() }, ['body', 'email']);
      expectForbiddenText(await svc.call('POST', '/api-keys', { name: 'k\ud800' }), ['body', 'name']);
      expectForbiddenText(await svc.call('POST', '/oauth2/clients', { name: 'c\u0000' }), ['body', 'name']);
    });

    it('refuses it in a form body (client_id of POST /oauth2/token)', async () => {
      const res = await fetch(`${svc.api}/oauth2/token`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=%00&client_secret=x',
      });
      expectForbiddenText({ status: res.status, body: await res.json() }, ['body', 'client_id']);
      const json = await svc.call('POST', '/oauth2/token', { grant_type: 'client_credentials', client_id: '\ud800', client_secret: 'x' });
      expectForbiddenText(json, ['body', 'client_id']);
      // in HTTP Basic (RFC 6749 §2.3.1) such text, or a broken percent-encoding, is no credential: the RFC's invalid_client
      for (const credentials of ['%00:x', '\u0000:x', '%:x', 'id:%E0%A4%A']) {
        const basic = await fetch(`${svc.api}/oauth2/token`, {
          method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(credentials).toString('base64')}` }, body: 'grant_type=client_credentials',
        });
        expect(basic.status, credentials).to.equal(401);
        expect(await basic.json()).to.include({ error: 'invalid_client' });
      }
    });

    it('refuses it in query strings: ?q= on lists, search and export', async () => {
      for (const path of [`/companies/${company}/customers`, `/companies/${company}/customers/search`, at(invoices), '/invoices', `${at(invoices)}/export.csv`]) {
        expectForbiddenText(await svc.call('GET', `${path}?q=a%00b`), ['query', 'q']);
        expectForbiddenText(await svc.call('GET', `${path}?q=%07`), ['query', 'q']);
      }
    });

    it('refuses it in path parameters (DELETE /oauth2/clients/%00)', async () => {
      expectForbiddenText(await svc.call('DELETE', '/oauth2/clients/%00'), ['path', 'client_id']);
      expectForbiddenText(await svc.call('DELETE', '/api-keys/%07'), ['path', 'key_id']);
    });
  });

  describe('query numbers and dates (422 with loc)', () => {
    const cases: [string, string, (string | number)[]][] = [
      ['page=1e309', `/companies/{c}/customers?page=1e309`, ['query', 'page']],
      ['page=99999999999999999999', `/companies/{c}/customers?page=99999999999999999999`, ['query', 'page']],
      ['page=1e309 on invoices', `${invoices}?page=1e309`, ['query', 'page']],
      ['page=99999999999999999999 on invoices', `/invoices?page=99999999999999999999`, ['query', 'page']],
      ['page_size=1e309', `${invoices}?page_size=1e309`, ['query', 'page_size']],
      ['page_size=1e309 on security events', '/security-events?page_size=1e309', ['query', 'page_size']],
      ['page=0 on API keys', '/api-keys?page=0', ['query', 'page']],
      ['page_size=101 on webhook deliveries', '/connect/webhooks/00000000-0000-4000-8000-000000000000/deliveries?page_size=101', ['query', 'page_size']],
      ['from_date=0000-01-01 on the invoice list', `${invoices}?from_date=0000-01-01`, ['query', 'from_date']],
      ['to_date=0000-12-31 on /invoices', `/invoices?to_date=0000-12-31`, ['query', 'to_date']],
      ['from_date=0000-01-01 on the CSV export', `${invoices}/export.csv?from_date=0000-01-01`, ['query', 'from_date']],
      ['from_date=2024-02-30 (no such day)', `${invoices}?from_date=2024-02-30`, ['query', 'from_date']],
      ['from_date=+12024-01-01', `${invoices}?from_date=%2B12024-01-01`, ['query', 'from_date']],
    ];
    for (const [name, path, loc] of cases) {
      it(`refuses ${name}`, async () => {
        const res = await svc.call('GET', at(path));
        expect(res.status, JSON.stringify(res.body)).to.equal(422);
        expect(res.body.detail.map((i: Issue) => i.loc)).to.deep.include(loc);
      });
    }

    it('still accepts the largest page and the edges of the calendar', async () => {
      const page = await svc.call('GET', `/companies/${company}/customers?page=1000000`);
      expect(page.status).to.equal(200);
      expect(page.body.items).to.deep.equal([]);
      expect((await svc.call('GET', at(`${invoices}?from_date=0001-01-01&to_date=9999-12-31`))).status).to.equal(200);
      expect((await svc.call('GET', at(`${invoices}?from_date=2024-02-29`))).status).to.equal(200);
    });

    it('refuses issue_date 0000-01-01 in an invoice create with 422, consuming no number', async () => {
      const before = await nextNumber();
      for (const field of ['issue_date', 'due_date', 'delivery_date']) {
        const res = await svc.call('POST', at(invoices), draft({ [field]: '0000-01-01' }));
        expect(res.status, JSON.stringify(res.body)).to.equal(422);
        expect(res.body.detail.map((i: Issue) => i.loc)).to.deep.include(['body', field]);
      }
      expect(await nextNumber()).to.equal(before);
    });
  });

  it('documents the limits in /openapi.json', async () => {
    const doc = await (await fetch(`${svc.root}/openapi.json`)).json();
    const params = (path: string) => doc.paths[path].get.parameters as { name: string; schema: Record<string, unknown>; description?: string }[];
    const page = params('/companies/{company_id}/customers').find((p) => p.name === 'page')!;
    expect(page.schema).to.include({ minimum: 1, maximum: 1_000_000 });
    const fromDate = params('/companies/{company_id}/invoices').find((p) => p.name === 'from_date')!;
    expect(fromDate.description).to.include('year 0001-9999');
    expect(params('/security-events').find((p) => p.name === 'page_size')!.schema).to.include({ maximum: 100 });
    expect(doc.components.responses.BadRequest.description).to.include('json_too_deep');
    expect(doc.components.responses.ValidationError.description).to.include('string_forbidden_character');
  });

  describe('deep JSON', () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    for (const [method, path] of [['POST', `${invoices}`], ['POST', '/api-keys'], ['POST', '/oauth2/token'], ['PUT', `${invoices}/00000000-0000-4000-8000-000000000000`]] as const) {
      it(`refuses 10,000 nested arrays on ${method} ${path} with 400 json_too_deep, in the spec's shape`, async () => {
        const res = await raw(method, at(path), deep(10_000));
        expect(res.status, res.text.slice(0, 200)).to.equal(400);
        expect(res.type).to.match(/^application\/json/);
        expect(JSON.parse(res.text).detail).to.include({ error: 'json_too_deep', max_depth: 64 });
      });
    }

    it('refuses objects nested too deep, but not brackets inside strings', async () => {
      const objects = '{"a":'.repeat(65) + '1' + '}'.repeat(65);
      expect((await raw('POST', '/api-keys', objects)).status).to.equal(400);
      // 64 levels are fine (the body is then refused by its schema, as usual)
      const ok = await raw('POST', '/api-keys', '{"a":'.repeat(63) + '[]' + '}'.repeat(63));
      expect(ok.status).to.equal(422);
      const inString = await svc.call('POST', '/api-keys', { name: '[[[[{{{{\\"['.repeat(20) });
      expect(inString.status).to.equal(422);
      expect(inString.body.detail[0].loc).to.deep.equal(['body', 'name']);
    });

    it('echoes a bounded, truncated input in the 422', async () => {
      const wide = await svc.call('POST', '/api-keys', { name: Array.from({ length: 500 }, (_, i) => ({ k: 'x'.repeat(1000), i, deeper: [[[[[i]]]]] })) });
      expect(wide.status).to.equal(422);
      const text = JSON.stringify(wide.body);
      expect(text.length).to.be.below(8_000);
      const longName = await svc.call('POST', '/api-keys', { name: 'é'.repeat(100_000) });
      expect(longName.status).to.equal(422);
      expect(JSON.stringify(longName.body).length).to.be.below(2_000);
      expect(longName.body.detail[0].input).to.match(/…$/);
      const manyErrors = await svc.call('POST', '/api-keys', Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`extra${i}`, i])));
      expect(manyErrors.status).to.equal(422);
      expect(JSON.stringify(manyErrors.body).length).to.be.below(20_000);
      expect(manyErrors.body.detail.at(-1)).to.include({ type: 'too_many_errors' });
    });
  });
});
