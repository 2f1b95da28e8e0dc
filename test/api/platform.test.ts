import { nativeOpenApiDoor } from '../../src/doors/native/openapi.ts';
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { expect } from 'chai';
import type { Actor } from '../../commands/shared/actor.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { Page, PageQuery } from '../../schemas/common/page.ts';
import { Uuid } from '../../schemas/common/uuid.ts';
import { WrongExpectedRevision } from '../../src/platform/eventstore/port.ts';
import { VersionMismatch } from '../../src/platform/handling/append.ts';
import { createHttpApp } from '../../src/platform/http/app.ts';
import { LOCATION_HEADER, ifMatchHeader } from '../../src/platform/http/headers.ts';
import { nativeErrors } from '../../src/doors/native/errors.ts';
import { defineRoute, type Caller } from '../../src/doors/native/route.ts';
import { capturingLogger, listen, type Running } from './support/http.ts';

const COMPANY = '6f1c2b9e-3c1d-4f7a-9a59-2d1b7f0e8c11';
const ACTOR: Actor = { type: 'api_key', id: 'key-1', organisationId: COMPANY, role: 'admin' };

const CustomerIn = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 10 }),
    vat_id: Type.Optional(Type.String({ pattern: '^SK[0-9]{10}$' })),
    kind: Type.Optional(Type.Union([Type.Literal('company'), Type.Literal('person')])),
  },
  { additionalProperties: false },
);
const Customer = Type.Object({ id: Type.String(), company_id: Uuid, name: Type.String() });

const createCustomer = defineRoute({
  method: 'POST',
  path: '/companies/{company_id}/customers',
  operationId: 'createCustomer',
  summary: 'Create a customer',
  tags: ['customers'],
  auth: 'api',
  params: Type.Object({ company_id: Uuid }),
  body: CustomerIn,
  // the handler reads If-Match and sets Location: both declared, or response checks make it a 500
  headerDocs: [ifMatchHeader('the version read')],
  responses: { 201: { description: 'Created', schema: Customer, headers: [LOCATION_HEADER] } },
  async handle({ params, body, actor, ifMatch }) {
    // these lines type-check only if params, body and actor were inferred from the schemas
    const name: string = body.name;
    const company: string = params.company_id;
    const org: string = actor.organisationId;
    // @ts-expect-error: not in the body schema
    void body.unknown_field;
    return {
      status: 201,
      body: { id: 'c-1', company_id: company, name, org, if_match: ifMatch ?? null },
      headers: { location: `/api/v1/companies/${company}/customers/c-1` },
    };
  },
});

const listCustomers = defineRoute({
  method: 'GET',
  path: '/companies/{company_id}/customers',
  operationId: 'listCustomers',
  summary: 'List customers',
  tags: ['customers'],
  auth: 'api',
  params: Type.Object({ company_id: Uuid }),
  query: Type.Object({ ...PageQuery.properties, active: Type.Optional(Type.Boolean()) }),
  responses: { 200: { description: 'A page', schema: Page(Customer) } },
  async handle({ query }) {
    const page: number = query.page;
    return { status: 200, body: { items: [], total: 0, page, page_size: query.page_size, q: query.q ?? null, active: query.active ?? null } };
  },
});

const echoRaw = defineRoute({
  method: 'POST',
  path: '/echo',
  operationId: 'echo',
  summary: 'Echo the raw body digest',
  tags: ['test'],
  auth: 'public',
  body: Type.Object({}, { additionalProperties: true }),
  bodyLimitBytes: 256,
  responses: { 200: { description: 'Digest', schema: Type.Object({ sha256: Type.String(), bytes: Type.Integer(), actor: Type.Null() }) } },
  async handle({ rawBody, actor }) {
    const none: null = actor;
    return { status: 200, body: { sha256: createHash('sha256').update(rawBody).digest('hex'), bytes: rawBody.length, actor: none } };
  },
});

// a shared schema with an $id, reached through Type.Ref: one component in the document
const Party = Type.Object({ name: Type.String(), ico: Type.String({ pattern: '^[0-9]{8}$' }) }, { $id: 'Party' });
const createInvoice = defineRoute({
  method: 'POST',
  path: '/invoices',
  operationId: 'createInvoice',
  summary: 'Nested bodies',
  tags: ['invoices'],
  auth: 'api',
  body: Type.Object({
    buyer: Type.Ref(Party),
    lines: Type.Array(
      Type.Object({ quantity: Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' }), note: Type.Union([Type.String({ maxLength: 5 }), Type.Null()]) }),
      { minItems: 1 },
    ),
  }),
  responses: { 201: { description: 'Created', schema: Type.Object({ id: Uuid }) } },
  async handle({ body }) {
    // a buyer named 'liar' makes the handler break its own response contract
    const id = body.buyer.name === 'liar' ? 'not-a-uuid' : COMPANY;
    return { status: 201, body: { id, lines: body.lines.length } };
  },
});

const failures = [
  defineRoute({
    method: 'POST',
    path: '/invoices/{invoice_id}/send',
    operationId: 'sendInvoice',
    summary: 'Fails with a domain error',
    tags: ['test'],
    auth: 'api',
    params: Type.Object({ invoice_id: Type.String() }),
    responses: { 202: { description: 'Accepted' }, 404: { description: 'Not found' } },
    async handle({ params }) {
      throw new DomainError('invoice_not_found', 'no such invoice', { invoice_id: params.invoice_id });
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/invoices/{invoice_id}',
    operationId: 'updateInvoice',
    summary: 'Fails with a concurrency conflict',
    tags: ['test'],
    auth: 'api',
    params: Type.Object({ invoice_id: Type.String() }),
    headerDocs: [ifMatchHeader('the version read'), { name: 'X-Conflict-On', description: 'which stream the race is lost on', schema: Type.String() }],
    responses: { 200: { description: 'Updated' } },
    async handle({ ifMatch, headers }) {
      // as the command path raises them: the client's stale If-Match, or a race lost on another stream
      if (ifMatch !== undefined && headers['x-conflict-on'] !== 'usage') throw new VersionMismatch('invoice-1', ifMatch, 5);
      throw new WrongExpectedRevision(ifMatch === undefined ? 'invoice-1' : 'usage-org-1-2026-11', 2, 5);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/invoices/{invoice_id}',
    operationId: 'getInvoice',
    summary: 'Crashes',
    tags: ['test'],
    auth: 'public',
    params: Type.Object({ invoice_id: Type.String() }),
    responses: { 200: { description: 'Never' } },
    async handle() {
      throw new Error('secret internals at /srv/db');
    },
  }),
  // registered after the {invoice_id} route on purpose: literals must still win
  defineRoute({
    method: 'GET',
    path: '/invoices/export',
    operationId: 'exportInvoices',
    summary: 'Literal path beside a placeholder',
    tags: ['test'],
    auth: 'public',
    responses: { 200: { description: 'CSV', schema: Type.String(), mediaType: 'text/csv' } },
    async handle() {
      return { status: 200, body: 'number;total\n', headers: { 'content-type': 'text/csv; charset=utf-8' } };
    },
  }),
];

async function resolveCaller({ headers, ip }: { headers: Record<string, string | undefined>; ip: string }): Promise<Caller> {
  const key = headers['x-api-key'];
  const none: Caller = { credential: 'none', actor: null, refusal: null, rateKey: `ip:${ip}`, plan: null };
  if (key === undefined) return none;
  if (key === 'good') return { ...none, credential: 'api_key', actor: ACTOR, rateKey: 'key:good' };
  return { ...none, credential: 'api_key', refusal: new DomainError('invalid_api_key', 'unknown API key') };
}

describe('HTTP platform (real HTTP)', () => {
  const { logger, lines } = capturingLogger();
  let server: Running;
  const url = (path: string) => `${server.base}/api/v1${path}`;
  const json = (body: unknown, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'good', ...headers },
    body: JSON.stringify(body),
  });
  let customers: string;

  before(async () => {
    const app = createHttpApp({
      routes: [createCustomer, listCustomers, echoRaw, createInvoice, ...failures],
      schemas: [Party],
      validateResponses: true,
      prefix: '/api/v1',
      resolveCaller,
      renderError: nativeErrors,
      health: async () => ({ eventstore: 'up' }),
      logger,
      openapi: { ...nativeOpenApiDoor(), info: { title: 'Test API', version: '1.2.3' }, tags: { customers: 'c', test: 't', invoices: 'i', system: 's' } },
    });
    server = await listen(app);
    customers = url(`/companies/${COMPANY}/customers`);
  });
  after(() => server.close());

  describe('happy path', () => {
    it('201 with the handler body, headers and the validated, typed input', async () => {
      const res = await fetch(customers, json({ name: 'Acme', vat_id: 'SK1234567890' }));
      expect(res.status).to.equal(201);
      expect(res.headers.get('location')).to.equal(`/api/v1/companies/${COMPANY}/customers/c-1`);
      expect(await res.json()).to.deep.equal({ id: 'c-1', company_id: COMPANY, name: 'Acme', org: COMPANY, if_match: null });
    });

    it('coerces query strings, fills defaults and ignores unknown query keys', async () => {
      const res = await fetch(`${customers}?page=2&active=true&whatever=1`, { headers: { 'x-api-key': 'good' } });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ items: [], total: 0, page: 2, page_size: 20, q: null, active: true });
    });

    it('serves health publicly with status ok and the Node version it runs on', async () => {
      const res = await fetch(url('/health'));
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ eventstore: 'up', status: 'ok', node: process.versions.node });
    });

    it('runs on Node 24 LTS or later, as `npm test` starts it (the node binary the npm registry ships)', () => {
      expect(Number(process.versions.node.split('.')[0])).to.be.at.least(24);
    });

    it('prefers a literal segment over a placeholder and passes non-JSON bodies through', async () => {
      const res = await fetch(url('/invoices/export'));
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(await res.text()).to.equal('number;total\n');
    });
  });

  describe('request bodies', () => {
    it('keeps the raw body byte-exact', async () => {
      const raw = Buffer.from('{ "b":1,\n  "a" : "č\\u00e1"   }\r\n', 'utf8');
      const res = await fetch(url('/echo'), { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: raw });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ sha256: createHash('sha256').update(raw).digest('hex'), bytes: raw.length, actor: null });
    });

    it('400 malformed_json says where (line, column, offset) and why, in its own words', async () => {
      const res = await fetch(customers, { ...json({}), body: '{"name": "Acme",\n  "ico": x}' });
      expect(res.status).to.equal(400);
      const body = (await res.json()) as { detail: Record<string, unknown>; request_id: string };
      expect(body.detail).to.deep.equal({
        error: 'malformed_json',
        message: 'request body is not valid JSON: line 2, column 10: unexpected character "x": expected a value (object, array, string, number, true, false or null)',
        line: 2, column: 10, offset: 26, reason: 'unexpected character "x": expected a value (object, array, string, number, true, false or null)',
      });
      expect(body.request_id).to.equal(res.headers.get('x-request-id'));
    });

    it('every error body carries request_id, the X-Request-Id header\'s value', async () => {
      const missing = await fetch(url('/no-such-route'), { headers: { 'x-request-id': 'ask-404' } });
      expect(missing.status).to.equal(404);
      expect(await missing.json()).to.deep.include({ request_id: 'ask-404' });
      const invalid = await fetch(customers, { ...json({}), body: '{}' });
      expect(invalid.status).to.equal(422);
      const body = (await invalid.json()) as { detail: unknown[]; request_id: string };
      expect(body.detail).to.be.an('array');
      expect(body.request_id).to.be.a('string').and.equal(invalid.headers.get('x-request-id'));
    });

    it('400 unsupported_content_type', async () => {
      const res = await fetch(customers, { ...json({}), headers: { 'x-api-key': 'good', 'content-type': 'text/plain' }, body: '{"name":"A"}' });
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { detail: { error: string } }).detail.error).to.equal('unsupported_content_type');
    });

    it('413 payload_too_large above the route limit', async () => {
      const res = await fetch(url('/echo'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(300) }) });
      expect(res.status).to.equal(413);
      expect(((await res.json()) as { detail: { error: string } }).detail.error).to.equal('payload_too_large');
    });

    it('413 above the default 1 MiB limit', async () => {
      const res = await fetch(customers, json({ name: 'x'.repeat(1024 * 1024 + 10) }));
      expect(res.status).to.equal(413);
      expect(((await res.json()) as { detail: { error: string } }).detail.error).to.equal('payload_too_large');
    });
  });

  describe('422 validation', () => {
    type Issue = { loc: (string | number)[]; msg: string; type: string; input: unknown };
    const issues = async (res: Response): Promise<Issue[]> => {
      expect(res.status).to.equal(422);
      return ((await res.json()) as { detail: Issue[] }).detail;
    };

    it('reports every body problem with loc, msg, type and input', async () => {
      const detail = await issues(await fetch(customers, json({ vat_id: 'CZ1', colour: 'red', kind: 'alien' })));
      const byType = Object.fromEntries(detail.map((d) => [d.type, d]));
      expect(detail).to.have.length(4);
      expect(byType['missing']).to.include({ msg: 'Field required' }).and.have.deep.property('loc', ['body', 'name']);
      expect(byType['string_pattern_mismatch']).to.deep.include({ loc: ['body', 'vat_id'], input: 'CZ1' });
      expect(byType['extra_forbidden']).to.deep.include({ loc: ['body', 'colour'], input: 'red', msg: 'Extra inputs are not permitted' });
      expect(byType['literal_error']).to.deep.include({ loc: ['body', 'kind'], input: 'alien', msg: "Input should be 'company' or 'person'" });
    });

    it('string_too_long and string_type', async () => {
      const [long] = await issues(await fetch(customers, json({ name: 'x'.repeat(11) })));
      expect(long).to.deep.include({ loc: ['body', 'name'], type: 'string_too_long', msg: 'String should have at most 10 characters' });
      const [wrong] = await issues(await fetch(customers, json({ name: 42 })));
      expect(wrong).to.deep.include({ loc: ['body', 'name'], type: 'string_type', input: 42 });
    });

    it('a missing body is one "missing" entry at loc [body]', async () => {
      const detail = await issues(await fetch(customers, { method: 'POST', headers: { 'x-api-key': 'good' } }));
      expect(detail).to.deep.equal([{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }]);
    });

    it('query: page_size 101, page 0, unparsable page, q too long', async () => {
      const q = 'q'.repeat(201);
      const detail = await issues(await fetch(`${customers}?page_size=101&page=x&q=${q}`, { headers: { 'x-api-key': 'good' } }));
      expect(detail.map((d) => [d.loc.join('.'), d.type])).to.have.deep.members([
        ['query.page_size', 'less_than_equal'],
        ['query.page', 'int_parsing'],
        ['query.q', 'string_too_long'],
      ]);
      const [zero] = await issues(await fetch(`${customers}?page=0`, { headers: { 'x-api-key': 'good' } }));
      expect(zero).to.deep.include({ loc: ['query', 'page'], type: 'greater_than_equal', input: 0 });
    });

    it('nested loc with array indices, nullable unions and $ref schemas', async () => {
      const body = { buyer: { name: 'B', ico: '123' }, lines: [{ quantity: '1.5', note: null }, { quantity: 2, note: 'too long' }] };
      const detail = await issues(await fetch(url('/invoices'), json(body)));
      expect(detail.map((d) => [d.loc, d.type])).to.have.deep.members([
        [['body', 'buyer', 'ico'], 'string_pattern_mismatch'],
        [['body', 'lines', 1, 'quantity'], 'string_type'],
        [['body', 'lines', 1, 'note'], 'string_too_long'],
      ]);
      const ok = await fetch(url('/invoices'), json({ buyer: { name: 'B', ico: '12345678' }, lines: [{ quantity: '1', note: null }] }));
      expect(ok.status).to.equal(201);
    });

    it('path params: uuid_parsing', async () => {
      const [bad] = await issues(await fetch(url('/companies/not-a-uuid/customers'), { headers: { 'x-api-key': 'good' } }));
      expect(bad).to.deep.include({ loc: ['path', 'company_id'], type: 'uuid_parsing', input: 'not-a-uuid' });
    });
  });

  describe('errors', () => {
    const detailOf = async (res: Response) => ((await res.json()) as { detail: Record<string, unknown> }).detail;

    it('401 not_authenticated without credentials', async () => {
      const res = await fetch(customers);
      expect(res.status).to.equal(401);
      expect(await detailOf(res)).to.include({ error: 'not_authenticated' }).and.have.property('message');
    });

    it('answers the refusal of a credential', async () => {
      const res = await fetch(customers, { headers: { 'x-api-key': 'bad' } });
      expect(res.status).to.equal(401);
      expect(await detailOf(res)).to.deep.equal({ error: 'invalid_api_key', message: 'unknown API key' });
    });

    it('404 not_found for an unknown path', async () => {
      const res = await fetch(url('/nowhere'));
      expect(res.status).to.equal(404);
      expect(await detailOf(res)).to.include({ error: 'not_found' });
    });

    it('405 method_not_allowed with Allow', async () => {
      const res = await fetch(customers, { method: 'DELETE', headers: { 'x-api-key': 'good' } });
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.include('POST');
      expect(await detailOf(res)).to.include({ error: 'method_not_allowed' });
    });

    it('DomainError → its status and {detail:{error, message, ...extra}}', async () => {
      const res = await fetch(url('/invoices/inv-9/send'), { method: 'POST', headers: { 'x-api-key': 'good' } });
      expect(res.status).to.equal(404);
      expect(await detailOf(res)).to.deep.equal({ error: 'invoice_not_found', message: 'no such invoice', invoice_id: 'inv-9' });
    });

    it('VersionMismatch → 412 version_mismatch; any other WrongExpectedRevision → 409, If-Match or not', async () => {
      const put = (headers: Record<string, string>) => fetch(url('/invoices/inv-1'), { method: 'PUT', headers: { 'x-api-key': 'good', ...headers } });
      const stale = await put({ 'if-match': '"2"' });
      expect(stale.status).to.equal(412);
      expect(await detailOf(stale)).to.include({ error: 'version_mismatch', current_version: 5 });
      const raced = await put({});
      expect(raced.status).to.equal(409);
      expect(await detailOf(raced)).to.include({ error: 'concurrency_conflict' });
      const elsewhere = await put({ 'if-match': '"5"', 'x-conflict-on': 'usage' });
      expect(elsewhere.status).to.equal(409);
      const body = await detailOf(elsewhere);
      expect(body).to.include({ error: 'concurrency_conflict' });
      expect(body).not.to.have.property('current_version');
    });

    it('If-Match: "3", W/"3" and 3 parse to 3; anything else is 400 invalid_if_match', async () => {
      for (const h of ['"3"', 'W/"3"', '3']) {
        const res = await fetch(customers, json({ name: 'Acme' }, { 'if-match': h }));
        expect(((await res.json()) as { if_match: number }).if_match, h).to.equal(3);
      }
      for (const h of ['*', '"abc"', '"3", "4"', 'W/3']) {
        const res = await fetch(customers, json({ name: 'Acme' }, { 'if-match': h }));
        expect(res.status, h).to.equal(400);
        expect(await detailOf(res)).to.include({ error: 'invalid_if_match' });
      }
    });

    it('a handler answering outside its declared responses is a 500 when responses are checked', async () => {
      const res = await fetch(url('/invoices'), json({ buyer: { name: 'liar', ico: '12345678' }, lines: [{ quantity: '1', note: null }] }, { 'x-request-id': 'liar-1' }));
      expect(res.status).to.equal(500);
      const logged = lines.find((l) => l['request_id'] === 'liar-1' && l['err'] !== undefined);
      expect((logged?.['err'] as { message?: string } | undefined)?.message).to.include('createInvoice answered 201');
    });

    it('500 internal_error with the request id, no message or stack; logged with the stack', async () => {
      const res = await fetch(url('/invoices/inv-1'), { headers: { 'x-request-id': 'crash-1' } });
      expect(res.status).to.equal(500);
      const text = await res.text();
      expect(JSON.parse(text)).to.deep.equal({ detail: { error: 'internal_error', request_id: 'crash-1' }, request_id: 'crash-1' });
      expect(text).not.to.include('secret');
      const logged = lines.find((l) => l['request_id'] === 'crash-1' && l['err'] !== undefined);
      expect((logged?.['err'] as { stack?: string } | undefined)?.stack).to.include('secret internals');
    });
  });

  describe('request id and logging', () => {
    it('echoes a sane X-Request-Id and replaces an insane one', async () => {
      const mine = await fetch(url('/health'), { headers: { 'x-request-id': 'abc-123' } });
      expect(mine.headers.get('x-request-id')).to.equal('abc-123');
      const insane = await fetch(url('/health'), { headers: { 'x-request-id': 'a b\tc' } });
      expect(insane.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      const none = await fetch(url('/health'));
      expect(none.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    });

    it('writes one line per request with method, path, status and ms', async () => {
      await fetch(url('/health'), { headers: { 'x-request-id': 'log-1' } });
      const mine = lines.filter((l) => l['request_id'] === 'log-1' && l['msg'] === 'request');
      expect(mine).to.have.length(1);
      expect(mine[0]).to.include({ method: 'GET', path: '/api/v1/health', status: 200 }).and.have.property('ms').that.is.a('number');
    });
  });

  describe('OpenAPI and docs', () => {
    type Doc = {
      openapi: string;
      info: { title: string; version: string };
      servers: { url: string }[];
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { securitySchemes: Record<string, { type: string; name?: string; scheme?: string }>; schemas: Record<string, unknown> };
    };
    let doc: Doc;
    before(async () => {
      const res = await fetch(`${server.base}/openapi.json`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      doc = (await res.json()) as Doc;
    });

    it('is OpenAPI 3.1 with info, server prefix and security schemes', () => {
      expect(doc.openapi).to.equal('3.1.0');
      expect(doc.info).to.deep.equal({ title: 'Test API', version: '1.2.3' });
      // absolute: the address it was asked at (no hosts configured for this door)
      expect(doc.servers).to.deep.equal([{ url: `${server.base}/api/v1`, description: 'This service, as it answered this request' }]);
      expect(doc.components.securitySchemes['ApiKey']).to.include({ type: 'apiKey', name: 'X-Api-Key' });
      expect(doc.components.securitySchemes['Bearer']).to.include({ type: 'http', scheme: 'bearer' });
      // every body is a named component: the shared ones, Party by its $id, the rest named after their operation
      expect(doc.components.schemas).to.include.keys('ErrorBody', 'ValidationErrorBody', 'RateLimited', 'Party', 'CreateCustomerRequest', 'CreateCustomerResponse', 'CreateInvoiceRequest');
    });

    it('documents the fake routes from the same schemas that validate them', () => {
      const post = doc.paths['/companies/{company_id}/customers']?.['post'];
      expect(post).to.include({ operationId: 'createCustomer', summary: 'Create a customer' });
      const bodySchema = (post?.['requestBody'] as { content: Record<string, { schema: Record<string, unknown> }> }).content['application/json']?.schema;
      expect(bodySchema).to.deep.equal({ $ref: '#/components/schemas/CreateCustomerRequest' });
      expect(doc.components.schemas['CreateCustomerRequest']).to.deep.equal(JSON.parse(JSON.stringify(CustomerIn)));
      expect(post?.['parameters']).to.deep.equal([
        { name: 'company_id', in: 'path', required: true, description: 'UUID', schema: { format: 'uuid', description: 'UUID', type: 'string' } },
        { name: 'If-Match', in: 'header', required: false, description: 'the version read', schema: { pattern: '^(W/)?"?[0-9]{1,15}"?$', type: 'string' } },
      ]);
      // 409 and 412: a write may race another or meet a stale If-Match (found undocumented by the fuzz campaign)
      // 503: every route may find the database out of reach (service_unavailable, Retry-After)
      expect(post?.['responses']).to.have.keys('201', '400', '401', '409', '412', '413', '422', '429', '500', '503');
      // a GET reads If-Match too: a malformed one is a 400 there as well
      expect(doc.paths['/companies/{company_id}/customers']?.['get']?.['responses']).to.include.keys('400', '401');
      expect(post?.['security']).to.deep.equal([{ ApiKey: [] }, { Bearer: [] }, { OAuth2: [] }]);

      const list = doc.paths['/companies/{company_id}/customers']?.['get'];
      const pageSize = (list?.['parameters'] as { name: string; required: boolean; schema: Record<string, unknown> }[]).find((p) => p.name === 'page_size');
      expect(pageSize).to.deep.include({ required: false });
      // the default is said, not given: generators would make page_size required
      expect(pageSize?.schema).to.include({ maximum: 100 }).and.not.have.property('default');
      expect(pageSize?.schema['description']).to.match(/Default: `20`/);
      expect(doc.paths['/health']?.['get']).to.include({ operationId: 'getHealth' }).and.have.deep.property('security', []);
      expect(doc.paths['/invoices/export']?.['get']).to.include({ operationId: 'exportInvoices' });
      const invoiceBody = doc.components.schemas['CreateInvoiceRequest'] as { properties: Record<string, unknown> } | undefined;
      expect(invoiceBody?.properties['buyer']).to.deep.equal({ $ref: '#/components/schemas/Party' });
    });

    it('/docs serves Swagger UI from local assets pointing at /openapi.json', async () => {
      const page = await fetch(`${server.base}/docs`);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
      expect(assets).to.include('/docs/assets/swagger-ui-bundle.js');
      expect(html).not.to.match(/https?:\/\//);
      for (const asset of assets) {
        const res = await fetch(`${server.base}${asset}`);
        expect(res.status, asset).to.equal(200);
        expect((await res.arrayBuffer()).byteLength, asset).to.be.greaterThan(0);
      }
      const init = await (await fetch(`${server.base}/docs/assets/init.js`)).text();
      expect(init).to.include('"/openapi.json"');
      expect((await fetch(`${server.base}/docs/assets/..%2Fpackage.json`)).status).to.equal(404);
    });

    it('/redoc serves ReDoc from its local bundle, reading /openapi.json, with no inline script', async () => {
      const page = await fetch(`${server.base}/redoc`);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      const html = await page.text();
      expect(html).to.include('spec-url="/openapi.json"');
      expect(html).not.to.match(/https?:\/\//);
      expect(html).not.to.match(/<script>[^<]/);
      const bundle = await fetch(`${server.base}/redoc/assets/redoc.standalone.js`);
      expect(bundle.status).to.equal(200);
      expect(bundle.headers.get('content-type')).to.match(/^text\/javascript/);
      expect((await bundle.arrayBuffer()).byteLength).to.be.greaterThan(100_000);
      expect((await fetch(`${server.base}/redoc/assets/..%2Fpackage.json`)).status).to.equal(404);
    });
  });
});
