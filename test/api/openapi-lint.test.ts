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
  describe('as generators take it', () => {
    type Media = Record<string, { schema: Record<string, unknown> }>;
    type Op = { operationId: string; parameters?: { name: string; in: string; required: boolean }[]; requestBody?: { content: Media }; responses: Record<string, { content?: Media; $ref?: string }> };
    const operations = (path: string) => Object.values((JSON.parse(docs[path] ?? '{}') as { paths: Record<string, Record<string, Op>> }).paths).flatMap((item) => Object.values(item));
    const op = (path: string, id: string) => operations(path).find((o) => o.operationId === id) as Op;
    const isNamed = (schema: Record<string, unknown>) => typeof schema['$ref'] === 'string' && schema['$ref'].startsWith('#/components/schemas/');

    for (const path of ['/openapi.json', '/sapi/openapi.json']) {
      it(`${path}: every request and response body is a named component (or a choice of named ones)`, () => {
        const inline = operations(path).flatMap((o) => [
          ...Object.entries(o.requestBody?.content ?? {}).map(([type, m]) => [`${o.operationId} request ${type}`, m.schema] as const),
          ...Object.entries(o.responses).flatMap(([status, r]) => Object.entries(r.content ?? {}).map(([type, m]) => [`${o.operationId} ${status} ${type}`, m.schema] as const)),
        ]).filter(([, schema]) => !isNamed(schema) && !(Array.isArray(schema['anyOf']) && (schema['anyOf'] as Record<string, unknown>[]).every(isNamed)));
        expect(inline.map(([where]) => where)).to.deep.equal([]);
      });

      it(`${path}: no \`default\` anywhere (generators make such fields required), and absolute servers, this service first`, () => {
        const doc = JSON.parse(docs[path] ?? '{}') as { components: unknown; paths: unknown; servers: { url: string; variables?: Record<string, { enum?: string[] }> }[] };
        expect(JSON.stringify([doc.components, doc.paths])).to.not.match(/"default":(?!\{"description")/);
        expect(doc.servers[0]?.url).to.equal(`${svc.root}${path === '/openapi.json' ? '/api/v1' : '/sapi'}`);
        expect(doc.servers[1]?.url).to.match(/^\{scheme\}:\/\/\{host\}\//);
        expect(doc.servers[1]?.variables?.['host']?.enum).to.have.length(2);
      });
    }

    it('declares what is not JSON as what it is: UBL as XML, the PDF, CSV', () => {
      const content = (id: string) => Object.keys(op('/openapi.json', id).responses['200']?.content ?? {});
      expect(content('getInvoiceUbl')).to.deep.equal(['application/xml']);
      expect(content('getInvoicePdf')).to.deep.equal(['application/pdf']);
      expect(content('exportInvoicesCsv')).to.deep.equal(['text/csv']);
      expect(Object.keys(op('/sapi/openapi.json', 'sapiDocumentPeppolReceipt').responses['200']?.content ?? {})).to.deep.equal(['application/xml']);
    });

    it('declares the headers routes require: If-Match on PUT invoice, the participant and the key on SAPI send', () => {
      const header = (path: string, id: string, name: string) => op(path, id).parameters?.find((p) => p.in === 'header' && p.name === name);
      expect(header('/openapi.json', 'replaceInvoice', 'If-Match')?.required).to.equal(true);
      expect(header('/openapi.json', 'archiveCustomer', 'If-Match')?.required).to.equal(false);
      expect(header('/openapi.json', 'createInvoice', 'Idempotency-Key')?.required).to.equal(false);
      expect(header('/sapi/openapi.json', 'sapiSendDocument', 'X-Peppol-Participant-Id')?.required).to.equal(true);
      expect(header('/sapi/openapi.json', 'sapiSendDocument', 'Idempotency-Key')?.required).to.equal(true);
    });

    it('the native token endpoint takes a form (RFC 6749) or JSON; the SAPI one JSON only, as sapi-sk.md says', () => {
      expect(Object.keys(op('/openapi.json', 'oauthToken').requestBody?.content ?? {})).to.deep.equal(['application/json', 'application/x-www-form-urlencoded']);
      expect(Object.keys(op('/sapi/openapi.json', 'sapiToken').requestBody?.content ?? {})).to.deep.equal(['application/json']);
    });
  });
});
