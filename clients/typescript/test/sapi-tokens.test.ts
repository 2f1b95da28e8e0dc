import { expect } from 'chai';
import { createSapiClient, SapiAuthError } from '../src/index.ts';
import { fakeServer, type Reply } from './support/fake-server.ts';

const PARTICIPANT = '9950:sk2020000000svctest';
const pair = (n: number): Reply => ({ status: 200, body: { access_token: `at-${n}`, token_type: 'Bearer', expires_in: 900, refresh_token: `rt-${n}`, scope: 'document:send document:receive' } });
const ok: Reply = { status: 200, body: { providerDocumentId: 'svc_sapi_doc_1', status: 'SENT' } };
const unauthorised: Reply = { status: 401, body: { error: { category: 'AUTH', code: 'SAPI-AUTH-001', message: 'authentication failed', retryable: false, correlation_id: 'c', details: [] } } };

/** The SAPI token life cycle against a fake connector, on a clock the test moves. */
describe('SDK SAPI-SK token life cycle', () => {
  const servers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  async function sapiAgainst(replies: Reply[]) {
    const server = await fakeServer(replies);
    servers.push(server);
    const clock = { ms: Date.parse('2026-11-29T10:00:00Z') };
    const sapi = createSapiClient({ baseUrl: `${server.root}/sapi`, clientId: 'client-1', clientSecret: 'secret-1', participantId: PARTICIPANT, now: () => clock.ms });
    const status = () => sapi.GET('/document/status/{providerDocumentId}', { params: { path: { providerDocumentId: 'svc_sapi_doc_1' } } });
    const calls = () => server.seen.map((s) => `${s.method} ${s.url} ${s.headers.authorization ?? ''}`.trim());
    return { server, clock, sapi, status, calls };
  }

  it('obtains a token with the client credentials (JSON) and keeps it for the next calls', async () => {
    const { server, status, calls } = await sapiAgainst([pair(1), ok, ok]);
    await status();
    await status();
    expect(calls()).to.deep.equal([
      'POST /sapi/auth/token', 'GET /sapi/document/status/svc_sapi_doc_1 Bearer at-1', 'GET /sapi/document/status/svc_sapi_doc_1 Bearer at-1',
    ]);
    expect(JSON.parse(server.seen[0]?.body ?? '')).to.deep.equal({ client_id: 'client-1', client_secret: 'secret-1', grant_type: 'client_credentials' });
    expect(server.seen[0]?.headers['content-type']).to.match(/^application\/json/);
  });

  it('renews with the refresh token shortly before expiry (when should_refresh would say so), and uses the new pair', async () => {
    const { server, clock, status, calls } = await sapiAgainst([pair(1), ok, pair(2), ok]);
    await status();
    clock.ms += (900 - 180) * 1000; // 180 s left
    await status();
    expect(calls()).to.deep.equal([
      'POST /sapi/auth/token', 'GET /sapi/document/status/svc_sapi_doc_1 Bearer at-1',
      'POST /sapi/auth/renew', 'GET /sapi/document/status/svc_sapi_doc_1 Bearer at-2',
    ]);
    expect(JSON.parse(server.seen[2]?.body ?? '')).to.deep.equal({ refresh_token: 'rt-1' });
  });

  it('obtains afresh when the renewal is refused', async () => {
    const { clock, status, calls } = await sapiAgainst([pair(1), ok, unauthorised, pair(3), ok]);
    await status();
    clock.ms += 900 * 1000;
    await status();
    expect(calls()).to.deep.equal([
      'POST /sapi/auth/token', 'GET /sapi/document/status/svc_sapi_doc_1 Bearer at-1',
      'POST /sapi/auth/renew', 'POST /sapi/auth/token', 'GET /sapi/document/status/svc_sapi_doc_1 Bearer at-3',
    ]);
  });

  it('on a 401 obtains a new token and sends the request once more, same body and Idempotency-Key; a second 401 goes back to the caller', async () => {
    const { server, sapi, calls } = await sapiAgainst([pair(1), unauthorised, pair(2), unauthorised]);
    const body = {
      metadata: { documentId: 'FA-1', documentTypeId: 'x', processId: 'y', senderParticipantId: PARTICIPANT, receiverParticipantId: PARTICIPANT, creationDateTime: '2026-11-29T10:00:00Z' },
      payload: '<Invoice/>', payloadFormat: 'XML' as const,
    };
    const { response, error } = await sapi.POST('/document/send', { body });
    expect(response.status).to.equal(401);
    expect(error).to.have.nested.property('error.code', 'SAPI-AUTH-001');
    expect(calls()).to.deep.equal(['POST /sapi/auth/token', 'POST /sapi/document/send Bearer at-1', 'POST /sapi/auth/token', 'POST /sapi/document/send Bearer at-2']);
    const [first, again] = [server.seen[1], server.seen[3]];
    expect(again?.body).to.equal(first?.body).and.not.equal('');
    expect(again?.headers['idempotency-key']).to.equal(first?.headers['idempotency-key']).and.match(/^[0-9a-f-]{36}$/);
    expect(again?.headers['x-peppol-participant-id']).to.equal(PARTICIPANT);
  });

  it('concurrent first calls share one token request', async () => {
    const { status, calls } = await sapiAgainst([pair(1), ok]);
    await Promise.all([status(), status(), status()]);
    expect(calls().filter((c) => c.startsWith('POST /sapi/auth/token'))).to.have.length(1);
  });

  it('refused credentials throw SapiAuthError with the envelope', async () => {
    const { status } = await sapiAgainst([unauthorised]);
    const failure = await status().then(() => null, (error: unknown) => error);
    expect(failure).to.be.instanceOf(SapiAuthError);
    expect((failure as SapiAuthError).status).to.equal(401);
  });
});
