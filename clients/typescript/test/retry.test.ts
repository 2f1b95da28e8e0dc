import { expect } from 'chai';
import { createClient, createSapiClient } from '../src/index.ts';
import { fakeServer, type Reply } from './support/fake-server.ts';

const COMPANY = '00000000-0000-4000-8000-000000000001';
const customer = { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000000' };
const created = { status: 201, body: { id: '00000000-0000-4000-8000-0000000000c1', name: customer.name } };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A native client of a fake server answering `replies`, whose waits are recorded rather than slept. */
async function nativeAgainst(replies: Reply[], retry: { maxAttempts?: number; maxRetryAfterMs?: number } = {}) {
  const server = await fakeServer(replies);
  const waits: number[] = [];
  const client = createClient({ baseUrl: server.root, apiKey: 'svc_test', retry: { ...retry, sleep: async (ms) => void waits.push(ms) } });
  const createCustomer = (headers: Record<string, string> = {}) =>
    client.POST('/companies/{company_id}/customers', { params: { path: { company_id: COMPANY } }, body: customer, headers });
  return { server, waits, client, createCustomer };
}

describe('SDK retries: only what the answer says is retryable, with the same Idempotency-Key', () => {
  const servers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('gives a create a UUID Idempotency-Key and repeats it, with the same body, after 503 + Retry-After, waiting what the header says', async () => {
    const { server, waits, createCustomer } = await nativeAgainst([{ status: 503, headers: { 'Retry-After': '2' }, body: { detail: { error: 'read_model_behind' } } }, created]);
    servers.push(server);
    const { data, response } = await createCustomer();
    expect(response.status).to.equal(201);
    expect(data?.id).to.equal(created.body.id);
    expect(server.seen).to.have.length(2);
    const [first, second] = server.seen;
    expect(first?.headers['idempotency-key']).to.match(UUID);
    expect(second?.headers['idempotency-key']).to.equal(first?.headers['idempotency-key']);
    expect(second?.body).to.equal(first?.body);
    expect(JSON.parse(second?.body ?? '')).to.deep.equal(customer);
    expect(first?.url).to.equal(`/api/v1/companies/${COMPANY}/customers`);
    expect(first?.headers['x-api-key']).to.equal('svc_test');
    expect(waits).to.deep.equal([2000]);
  });

  it('keeps the caller\'s own Idempotency-Key', async () => {
    const { server, createCustomer } = await nativeAgainst([{ status: 429, headers: { 'Retry-After': '1' }, body: { error: 'rate_limit_exceeded', retry_after: 1 } }, created]);
    servers.push(server);
    await createCustomer({ 'Idempotency-Key': 'order-4711' });
    expect(server.seen.map((s) => s.headers['idempotency-key'])).to.deep.equal(['order-4711', 'order-4711']);
  });

  it('gives each create its own key', async () => {
    const { server, createCustomer } = await nativeAgainst([created]);
    servers.push(server);
    await createCustomer();
    await createCustomer();
    const [a, b] = server.seen.map((s) => s.headers['idempotency-key']);
    expect(a).to.match(UUID);
    expect(b).to.match(UUID).and.not.equal(a);
  });

  it('sends no key on a GET', async () => {
    const { server, client } = await nativeAgainst([{ status: 200, body: { items: [], total: 0, page: 1, page_size: 20, pages: 0 } }]);
    servers.push(server);
    await client.GET('/companies/{company_id}/customers', { params: { path: { company_id: COMPANY } } });
    expect(server.seen[0]?.headers['idempotency-key']).to.equal(undefined);
  });

  it('does not retry a refusal (422, 409 invalid_status, 502 that names no retryable code)', async () => {
    for (const refusal of [
      { status: 422, body: { detail: [{ loc: ['body', 'name'], msg: 'required', type: 'missing', input: null }] } },
      { status: 409, body: { detail: { error: 'invalid_status' } } },
      { status: 502, body: { detail: { error: 'something_else' } } },
    ]) {
      const { server, waits, createCustomer } = await nativeAgainst([refusal, created]);
      servers.push(server);
      const { response } = await createCustomer();
      expect(response.status).to.equal(refusal.status);
      expect(server.seen, `${refusal.status}`).to.have.length(1);
      expect(waits).to.deep.equal([]);
    }
  });

  it('retries a 502 the spec calls retryable (peppol_delivery_failed) and a repeat still in progress (409 idempotency_key_in_progress)', async () => {
    for (const retryable of [
      { status: 502, body: { detail: { error: 'peppol_delivery_failed' } } },
      { status: 409, headers: { 'Retry-After': '1' }, body: { detail: { error: 'idempotency_key_in_progress' } } },
    ]) {
      const { server, createCustomer } = await nativeAgainst([retryable, created]);
      servers.push(server);
      const { response } = await createCustomer();
      expect(response.status).to.equal(201);
      expect(server.seen).to.have.length(2);
    }
  });

  it('stops after maxAttempts and returns the last answer; backs off when no Retry-After is given', async () => {
    const { server, waits, createCustomer } = await nativeAgainst([{ status: 503, body: { detail: { error: 'numbering_busy' } } }], { maxAttempts: 3 });
    servers.push(server);
    const { response, error } = await createCustomer();
    expect(response.status).to.equal(503);
    expect(error).to.deep.equal({ detail: { error: 'numbering_busy' } });
    expect(server.seen).to.have.length(3);
    expect(new Set(server.seen.map((s) => s.headers['idempotency-key'])).size).to.equal(1);
    expect(waits).to.have.length(2);
    expect(waits[0]).to.be.within(250, 500);
    expect(waits[1]).to.be.within(500, 1000);
  });

  it('does not wait out a Retry-After longer than maxRetryAfterMs: the answer goes back to the caller', async () => {
    const { server, waits, createCustomer } = await nativeAgainst([{ status: 429, headers: { 'Retry-After': '3600' }, body: { error: 'rate_limit_exceeded' } }, created], { maxRetryAfterMs: 60_000 });
    servers.push(server);
    const { response } = await createCustomer();
    expect(response.status).to.equal(429);
    expect(server.seen).to.have.length(1);
    expect(waits).to.deep.equal([]);
  });

  it('SAPI-SK: retries when the envelope says retryable, never when it says not', async () => {
    const token = { status: 200, body: { access_token: 'at-1', token_type: 'Bearer', expires_in: 900, refresh_token: 'rt-1', scope: 'document:send document:receive' } };
    const sapiError = (status: number, code: string, retryable: boolean) => ({ status, body: { error: { category: retryable ? 'TEMPORARY' : 'VALIDATION', code, message: code, retryable, correlation_id: 'c', details: [] } } });
    const status = { status: 200, body: { providerDocumentId: 'svc_sapi_doc_1', status: 'SENT' } };
    for (const [replies, expected] of [
      [[token, sapiError(503, 'SAPI-DISABLED', true), status], 200],
      [[token, sapiError(400, 'SAPI-VAL-001', false), status], 400],
    ] as const) {
      const server = await fakeServer([...replies]);
      servers.push(server);
      const sapi = createSapiClient({ baseUrl: server.root, clientId: 'c', clientSecret: 's', participantId: '9950:sk2020000000svctest', retry: { sleep: async () => {} } });
      const { response } = await sapi.GET('/document/status/{providerDocumentId}', { params: { path: { providerDocumentId: 'svc_sapi_doc_1' } } });
      expect(response.status).to.equal(expected);
      expect(server.seen.length).to.equal(expected === 200 ? 3 : 2);
      expect(server.seen[1]?.headers['x-peppol-participant-id']).to.equal('9950:sk2020000000svctest');
      expect(server.seen[1]?.headers.authorization).to.equal('Bearer at-1');
    }
  });
});
