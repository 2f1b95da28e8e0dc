import { Type } from '@sinclair/typebox';
import { expect } from 'chai';
import { nativeOpenApiDoor } from '../../src/doors/native/openapi.ts';
import { nativeErrors } from '../../src/doors/native/errors.ts';
import { defineRoute } from '../../src/doors/native/route.ts';
import { createHttpApp } from '../../src/platform/http/app.ts';
import { ETAG_HEADER, ifMatchHeader } from '../../src/platform/http/headers.ts';
import { capturingLogger, listen, type Running } from './support/http.ts';

const route = (operationId: string, spec: Partial<Parameters<typeof defineRoute>[0]> & Pick<Parameters<typeof defineRoute>[0], 'handle'>) =>
  defineRoute({ method: 'GET', path: `/${operationId}`, operationId, summary: operationId, tags: ['test'], auth: 'public', responses: { 200: { description: 'ok', schema: Type.Object({}) } }, ...spec });

/**
 * The OpenAPI document cannot drift from the handlers: under response checks (every test service)
 * a handler that reads a header, sets a header or answers a media type its route does not declare
 * is a 500 naming the route; declared, the same handler answers and the document names it.
 */
describe('the OpenAPI document follows what handlers read and send', () => {
  let server: Running;
  const { logger, lines } = capturingLogger();
  before(async () => {
    const app = createHttpApp({
      routes: [
        route('readsUndeclared', { handle: async ({ headers }) => ({ status: 200, body: { v: headers['x-secret-switch'] ?? null } }) }),
        route('readsIfMatchUndeclared', { handle: async ({ ifMatch }) => ({ status: 200, body: { v: ifMatch ?? null } }) }),
        route('setsUndeclared', { handle: async () => ({ status: 200, body: {}, headers: { etag: '"1"' } }) }),
        route('sendsXmlAsJson', { handle: async () => ({ status: 200, body: '<a/>', headers: { 'content-type': 'application/xml' } }) }),
        route('declaresAll', {
          headerDocs: [ifMatchHeader('the version read', true), { name: 'X-Secret-Switch', description: 'a switch', schema: Type.String() }],
          responses: { 200: { description: 'ok', schema: Type.String(), mediaType: 'application/xml', headers: [ETAG_HEADER] } },
          handle: async ({ headers, ifMatch }) => ({ status: 200, body: `<a v="${ifMatch ?? ''}" s="${headers['x-secret-switch'] ?? ''}"/>`, headers: { 'content-type': 'application/xml', etag: '"1"' } }),
        }),
      ],
      validateResponses: true,
      prefix: '/api/v1',
      resolveCaller: async () => ({ credential: 'none', actor: null, refusal: null, rateKey: 'anon', plan: 'free' }),
      renderError: nativeErrors,
      health: async () => ({}),
      logger,
      openapi: { ...nativeOpenApiDoor(), tags: { test: 't', system: 's' } },
    });
    server = await listen(app);
  });
  after(() => server?.close());

  for (const [id, says] of [
    ['readsUndeclared', 'reads the x-secret-switch header'],
    ['readsIfMatchUndeclared', 'reads the If-Match header'],
    ['setsUndeclared', 'sets the etag header'],
    ['sendsXmlAsJson', 'sends application/xml but declares application/json'],
  ] as const) {
    it(`${id}: a 500 naming the route`, async () => {
      const res = await fetch(`${server.base}/api/v1/${id}`, { headers: { 'x-secret-switch': 'on', 'if-match': '"1"' } });
      expect(res.status).to.equal(500);
      expect(JSON.stringify(lines)).to.include(`${id}`).and.to.include(says);
    });
  }

  it('declared, the same reads and writes answer, and the document names them', async () => {
    const res = await fetch(`${server.base}/api/v1/declaresAll`, { headers: { 'x-secret-switch': 'on', 'if-match': '"7"' } });
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal('<a v="7" s="on"/>');
    const doc = (await (await fetch(`${server.base}/openapi.json`)).json()) as { paths: Record<string, { get: { parameters: { name: string; required: boolean }[]; responses: Record<string, { headers: Record<string, unknown>; content: Record<string, unknown> }> } }> };
    const op = doc.paths['/declaresAll']?.get;
    expect(op?.parameters.map((p) => [p.name, p.required])).to.deep.equal([['If-Match', true], ['X-Secret-Switch', false]]);
    expect(Object.keys(op?.responses['200']?.headers ?? {})).to.deep.equal(['X-Request-Id', 'ETag']);
    expect(Object.keys(op?.responses['200']?.content ?? {})).to.deep.equal(['application/xml']);
  });
});
