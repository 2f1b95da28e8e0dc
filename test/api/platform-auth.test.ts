import { nativeOpenApiDoor } from '../../src/doors/native/openapi.ts';
import { Type } from '@sinclair/typebox';
import { expect } from 'chai';
import type { Actor } from '../../commands/shared/actor.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { createHttpApp } from '../../src/platform/http/app.ts';
import { TooManyRequests } from '../../src/platform/http/errors.ts';
import { nativeErrors } from '../../src/doors/native/errors.ts';
import { defineRoute, type Route, type RouteAuth } from '../../src/platform/http/route.ts';
import type { Caller } from '../../src/platform/http/state.ts';
import { capturingLogger, listen, type Running } from './support/http.ts';

const user: Actor = { type: 'user', id: 'u1', organisationId: 'o1', role: 'admin' };
const keyActor: Actor = { type: 'api_key', id: 'k1', organisationId: 'o1', role: 'admin' };

/** Credentials by header value: a key, a user token, a refused token, a blocked address. */
async function resolveCaller({ headers, ip }: { headers: Record<string, string | undefined>; ip: string }): Promise<Caller> {
  const none: Caller = { credential: 'none', actor: null, refusal: null, rateKey: `ip:${ip}`, plan: null };
  if (headers['x-api-key'] === 'good') return { ...none, credential: 'api_key', actor: keyActor };
  if (headers['x-api-key'] === 'blocked') return { ...none, credential: 'api_key', refusal: new TooManyRequests(42, { limit: null, plan: null }) };
  if (headers['x-api-key']) return { ...none, credential: 'api_key', refusal: new DomainError('invalid_api_key', 'unknown') };
  if (headers.authorization === 'Bearer user') return { ...none, credential: 'bearer', actor: user };
  if (headers.authorization) return { ...none, credential: 'bearer', refusal: new DomainError('invalid_token', 'expired') };
  return none;
}

const route = (auth: RouteAuth, path: string): Route =>
  defineRoute({
    method: 'POST', path, operationId: `op_${auth}`, summary: auth, tags: ['t'], auth, form: true, bodyOptional: true,
    body: Type.Object({ grant_type: Type.String(), n: Type.Optional(Type.String()) }, { additionalProperties: false }),
    responses: { 200: { description: 'ok' } },
    async handle({ actor, body, ip }) {
      return { status: 200, body: { actor: actor?.type ?? null, body: body ?? null, ip } };
    },
  });

describe('HTTP platform: authentication modes, forms, 429', () => {
  let server: Running;
  const post = (path: string, headers: Record<string, string>, body?: string) => fetch(`${server.base}/api/v1${path}`, { method: 'POST', headers, body });

  before(async () => {
    const app = createHttpApp({
      routes: [route('api', '/api'), route('user', '/auth/me'), route('sign_in', '/auth/login')],
      prefix: '/api/v1', resolveCaller, renderError: nativeErrors, health: async () => ({}), logger: capturingLogger().logger,
      openapi: { ...nativeOpenApiDoor(), tags: { t: 't', system: 's' } },
    });
    server = await listen(app);
  });
  after(() => server.close());

  it('api: a key or a user token; a refused credential answers its refusal', async () => {
    expect((await post('/api', { 'x-api-key': 'good' })).status).to.equal(200);
    expect((await post('/api', { authorization: 'Bearer user' })).status).to.equal(200);
    const refused = await post('/api', { authorization: 'Bearer old' });
    expect(refused.status).to.equal(401);
    expect((await refused.json()).detail.error).to.equal('invalid_token');
    expect(((await (await post('/api', {})).json()) as { detail: { error: string } }).detail.error).to.equal('not_authenticated');
  });

  it('user and sign_in (/auth/*): a key, even a bad one, is 401 jwt_required', async () => {
    for (const path of ['/auth/me', '/auth/login']) {
      for (const key of ['good', 'nonsense']) {
        const res = await post(path, { 'x-api-key': key });
        expect(res.status, `${path} ${key}`).to.equal(401);
        expect((await res.json()).detail.error).to.equal('jwt_required');
      }
    }
    expect((await post('/auth/me', { authorization: 'Bearer user' })).status).to.equal(200);
    expect((await post('/auth/login', {})).status).to.equal(200);
  });

  it('accepts an application/x-www-form-urlencoded body where the route allows it, validated like JSON', async () => {
    const form = await post('/auth/login', { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials&n=1');
    expect(await form.json()).to.deep.include({ body: { grant_type: 'client_credentials', n: '1' } });
    const json = await post('/auth/login', { 'content-type': 'application/json' }, '{"grant_type":"x"}');
    expect((await json.json()).body).to.deep.equal({ grant_type: 'x' });
    const extra = await post('/auth/login', { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=a&evil=1');
    expect(extra.status).to.equal(422);
    const repeated = await post('/auth/login', { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=a&grant_type=b');
    expect(repeated.status).to.equal(400);
  });

  it('a limit refusal is 429 with Retry-After and the top-level rate_limit_exceeded body', async () => {
    const res = await post('/api', { 'x-api-key': 'blocked' });
    expect(res.status).to.equal(429);
    expect(res.headers.get('retry-after')).to.equal('42');
    expect(await res.json()).to.deep.equal({ error: 'rate_limit_exceeded', retry_after: 42, limit: null, plan: null, request_id: res.headers.get('x-request-id') });
  });
});
