import { createConfig, lintFromString } from '@redocly/openapi-core';
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';

type Operation = { responses: Record<string, unknown>; security?: Record<string, string[]>[] };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, { type: string; flows?: Record<string, { tokenUrl: string }> }> } };

/**
 * Both OpenAPI documents pass Redocly's recommended rules with no error and no warning (what an
 * integrator's tooling runs first), every rate-limited operation documents its 429, and the
 * OAuth 2.0 client-credentials flow is a security scheme of the native API.
 */
describe('the OpenAPI documents, as an integrator\'s linter reads them', function () {
  this.timeout(120_000);
  let svc: TestService;
  const docs: Record<string, string> = {};
  before(async () => {
    svc = await startTestService();
    for (const path of ['/openapi.json', '/sapi/openapi.json']) docs[path] = await (await fetch(`${svc.root}${path}`)).text();
  });
  after(async () => svc?.close());

  for (const path of ['/openapi.json', '/sapi/openapi.json']) {
    it(`${path}: 0 problems under the recommended rules`, async () => {
      const config = await createConfig({ extends: ['recommended'] });
      const problems = await lintFromString({ source: docs[path] ?? '', absoluteRef: `${svc.root}${path}`, config });
      const found = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
      expect(found, found.join('\n')).to.deep.equal([]);
    });

    it(`${path}: a 429 on every operation but the exempt health probe`, () => {
      const doc = JSON.parse(docs[path] ?? '{}') as Doc;
      const missing = Object.entries(doc.paths).flatMap(([p, item]) =>
        Object.entries(item).filter(([, op]) => !('429' in op.responses)).map(([method]) => `${method.toUpperCase()} ${p}`));
      expect(missing).to.deep.equal(['GET /health']);
    });
  }

  it('the native API offers API key, bearer token and OAuth 2.0 client credentials on every authenticated operation', () => {
    const doc = JSON.parse(docs['/openapi.json'] ?? '{}') as Doc;
    expect(doc.components.securitySchemes['OAuth2']?.flows?.['clientCredentials']?.tokenUrl).to.equal('/api/v1/oauth2/token');
    const secured = Object.values(doc.paths).flatMap((item) => Object.values(item)).filter((op) => (op.security ?? []).length > 0);
    expect(secured.length).to.be.greaterThan(40);
    for (const op of secured) expect(op.security).to.deep.equal([{ ApiKey: [] }, { Bearer: [] }, { OAuth2: [] }]);
  });

  it('the SAPI-SK document describes its own token and its own error envelope, not the native ones', () => {
    const doc = JSON.parse(docs['/sapi/openapi.json'] ?? '{}') as Doc & { components: { responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> } };
    expect(Object.keys(doc.components.securitySchemes)).to.deep.equal(['SapiToken']);
    for (const [name, response] of Object.entries(doc.components.responses)) {
      expect(response.content['application/json']?.schema.$ref, name).to.equal('#/components/schemas/SapiError');
    }
  });
});
