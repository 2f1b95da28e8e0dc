// GET …/invoices/export.csv over real HTTP: the list's filters and order, streamed, UTF-8 with a
// BOM, formulas defused and amounts numeric, and the plan gate in every auth mode.
import { Readable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import type { Actor } from '../../commands/shared/actor.ts';
import { invoiceExportRoutes } from '../../src/modules/exports/routes.ts';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Org = Awaited<ReturnType<typeof createTestOrganisation>>;
const line = { item_name: 'Služba', quantity: '1', unit_code: 'C62', unit_price: '10.00', vat_rate: '23' };
const BOM = [0xef, 0xbb, 0xbf];
const HEADER = 'id,invoice_number,invoice_type,status,issue_date,due_date,currency_code,supplier_name,buyer_name,buyer_vat_id,total_net,total_vat,total_gross';

/** RFC 4180 records (quoted fields may hold the delimiter, quotes and newlines). */
function parseCsv(text: string, delimiter = ','): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) record.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') record.push(field), records.push(record), (record = []), (field = ''), i++;
    else field += c;
  }
  return records;
}

describe('GET …/invoices/export.csv over HTTP', function () {
  this.timeout(180_000);
  let svc: TestService;
  let org: Org;
  const exported = (o: Org, query = '', headers: Record<string, string> = { 'x-api-key': o.apiKey }) =>
    fetch(`${svc.api}/companies/${o.companyId}/invoices/export.csv${query}`, { headers });
  const records = async (res: Response, delimiter = ',') => {
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).to.deep.equal(BOM);
    return parseCsv(bytes.subarray(3).toString('utf8'), delimiter);
  };
  const listed = async (o: Org, query: string) =>
    ((await svc.call('GET', `/companies/${o.companyId}/invoices?page_size=100${query}`, undefined, { 'x-api-key': o.apiKey })).body.items as { id: string }[]).map((i) => i.id);

  before(async () => {
    svc = await startTestService();
    org = await createTestOrganisation(svc.services, 'Team Business');
    const buyers = ['=HYPERLINK("http://x")', '+421 900 000 000', '-Mínus s.r.o.', '@Zavináč a.s.', 'Kŕdeľ; "úvodzovky"\nriadok'];
    for (const [i, name] of buyers.entries()) {
      const created = await svc.call('POST', `/companies/${org.companyId}/invoices`, {
        issue_date: `2026-0${i + 1}-10`, due_date: `2026-0${i + 1}-24`, buyer: { name, vat_id: 'SK2020273893', city: 'Nitra' },
        lines: [{ ...line, unit_price: `${(i + 1) * 1000}.50` }],
      }, { 'x-api-key': org.apiKey });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      if (i % 2 === 0) await svc.call('POST', `/companies/${org.companyId}/invoices/${created.body.id}/mark-sent`, {}, { 'x-api-key': org.apiKey });
    }
  });
  after(async () => svc?.close());

  it('is streamed (chunked, no Content-Length), UTF-8 with a BOM, CRLF, with a header row', async () => {
    const res = await exported(org);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(res.headers.get('transfer-encoding')).to.equal('chunked');
    expect(res.headers.get('content-length')).to.equal(null);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).to.deep.equal(BOM);
    expect(bytes.subarray(3).toString('utf8').split('\r\n')[0]).to.equal(HEADER);
  });

  it('lists exactly what the list route lists, in its order, under every filter and sort', async () => {
    for (const query of ['', '&status=delivered', '&status=draft', '&from_date=2026-02-01&to_date=2026-04-30', '&q=zavin', '&sort=invoice_number', '&sort=-total_gross,buyer_name']) {
      const rows = await records(await exported(org, `?${query.slice(1)}`));
      expect(rows.length, `${query} lists something`).to.be.greaterThan(1);
      expect(rows.slice(1).map((r) => r[0]), query).to.deep.equal(await listed(org, query));
    }
  });

  it('defuses formulas in text cells (= + - @) and keeps amounts as plain numbers', async () => {
    const rows = await records(await exported(org, '?sort=issue_date'));
    const buyer = rows.slice(1).map((r) => r[8]);
    expect(buyer).to.deep.equal(["'=HYPERLINK(\"http://x\")", "'+421 900 000 000", "'-Mínus s.r.o.", "'@Zavináč a.s.", 'Kŕdeľ; "úvodzovky"\nriadok']);
    for (const r of rows.slice(1)) for (const amount of r.slice(10)) expect(amount).to.match(/^-?\d+\.\d{2}$/);
    expect(rows[1]!.slice(10)).to.deep.equal(['1000.50', '230.12', '1230.62']);
  });

  it('dialect=excel-sk: semicolons and decimal commas, still numbers', async () => {
    const rows = await records(await exported(org, '?dialect=excel-sk&sort=issue_date'), ';');
    expect(rows[0]!.join(';')).to.equal(HEADER.replaceAll(',', ';'));
    expect(rows[1]!.slice(10)).to.deep.equal(['1000,50', '230,12', '1230,62']);
    expect(rows[5]![8]).to.equal('Kŕdeľ; "úvodzovky"\nriadok');
  });

  it('plan gate: a plan without csv_export gets 403 feature_not_available by API key, as a user and as an OAuth client', async () => {
    const free = await createTestOrganisation(svc.services, 'Solo Free', ['admin']);
    const login = await fetch(`${svc.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: free.users.admin!.email, password: free.users.admin!.password }) });
    const userToken = ((await login.json()) as { access_token: string }).access_token;
    const client = (await svc.call('POST', '/oauth2/clients', { name: 'Účtovník' }, { 'x-api-key': free.apiKey })).body as { client_id: string; client_secret: string };
    const grant = await fetch(`${svc.api}/oauth2/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }).toString(),
    });
    const clientToken = ((await grant.json()) as { access_token: string }).access_token;
    const modes: Record<string, string>[] = [{ 'x-api-key': free.apiKey }, { authorization: `Bearer ${userToken}` }, { authorization: `Bearer ${clientToken}` }];
    for (const headers of modes) {
      const res = await exported(free, '', headers);
      expect(res.status, JSON.stringify(headers)).to.equal(403);
      const body = (await res.json()) as { detail: Record<string, unknown> };
      expect(body.detail).to.deep.include({ error: 'feature_not_available', feature: 'csv_export', current_plan: 'Solo Free' });
    }
    const starter = await createTestOrganisation(svc.services, 'Solo Starter');
    expect((await exported(starter)).status).to.equal(200);
  });

  it("is 404 for another organisation's company", async () => {
    const other = await createTestOrganisation(svc.services, 'Team Business');
    expect((await exported(org, '', { 'x-api-key': other.apiKey })).status).to.equal(404);
  });

  it('writes in steps as it reads (one step of rows after the header per chunk), and refuses more than its maximum with 422 export_too_large', async () => {
    const actor: Actor = { type: 'api_key', id: 'test', organisationId: org.organisationId, role: 'admin' };
    const request = (maxRows?: number) => {
      const [route] = invoiceExportRoutes({ readModels: svc.services.readModels, lookups: svc.services.lookups, chunkRows: 2, maxRows });
      return route!.handle({
        params: { company_id: org.companyId }, query: { sort: 'issue_date' }, body: undefined, rawBody: Buffer.alloc(0), headers: {}, actor, ip: '127.0.0.1',
        requestId: 'r', ifMatch: undefined, log: pino({ level: 'silent' }),
      });
    };
    const answer = await request();
    const steps: string[] = [];
    for await (const chunk of answer.body as Readable) steps.push((chunk as Buffer).toString('utf8'));
    expect(steps).to.have.length(1 + 3); // the header, then 2 + 2 + 1 rows
    expect(parseCsv(steps.join('').slice(1)).slice(1)).to.have.length(5);
    try {
      await request(4);
      expect.fail('not refused');
    } catch (error) {
      expect(error).to.deep.include({ code: 'export_too_large' });
    }
  });
});
