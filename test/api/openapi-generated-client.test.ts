import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { startTestService, type TestService } from '../support/service.ts';

// a program as an integrator writes it against the generated types: each call is one the
// documents must describe well enough for a strict compile (names, headers, content, optionality)
const PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths as Native, components } from './native.ts';
import type { paths as Sapi } from './sapi.ts';

export async function native(baseUrl: string, apiKey: string, companyId: string, clientId: string, clientSecret: string): Promise<string> {
  const api = createClient<Native>({ baseUrl, headers: { 'X-Api-Key': apiKey } });

  // country_code has a server-side default: the generated type must leave it optional
  const customer: components['schemas']['CustomerCreate'] = { name: 'Odberateľ s.r.o.', vat_id: 'SK2020273893' };
  const created = await api.POST('/companies/{company_id}/customers', { params: { path: { company_id: companyId } }, body: customer });
  const customerId: string | undefined = created.data?.id;

  const draft = await api.POST('/companies/{company_id}/invoices', {
    params: { path: { company_id: companyId }, header: { 'Idempotency-Key': 'generated-client-1' } },
    body: { issue_date: '2026-01-15', customer_id: customerId, lines: [{ item_name: 'Konzultácie', quantity: '2', unit_price: '100.00', vat_rate: '23' }] },
  });
  if (!draft.data) throw new Error('no invoice');
  const invoiceId: string = draft.data.id;
  const etag: string | null = draft.response.headers.get('ETag');

  // If-Match is a required header parameter of PUT: leaving it out would not compile
  const replaced = await api.PUT('/companies/{company_id}/invoices/{invoice_id}', {
    params: { path: { company_id: companyId, invoice_id: invoiceId }, header: { 'If-Match': etag ?? String(draft.data.version) } },
    body: { issue_date: '2026-01-16', lines: [{ item_name: 'Konzultácie', quantity: '3', unit_price: '100.00', vat_rate: '23' }] },
  });
  const version: number | undefined = replaced.data?.version;

  // UBL is XML: read as text
  const ubl = await api.GET('/companies/{company_id}/invoices/{invoice_id}/ubl', { params: { path: { company_id: companyId, invoice_id: invoiceId } }, parseAs: 'text' });
  const xml: string | undefined = ubl.data;

  // RFC 6749 §4.4: the token request as a form
  const token = await api.POST('/oauth2/token', {
    body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
    bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  const accessToken: string | undefined = token.data?.access_token;
  return [customerId, version, xml?.slice(0, 5), accessToken].join(' ');
}

export async function sapi(baseUrl: string, clientId: string, clientSecret: string, participant: string): Promise<number> {
  const client = createClient<Sapi>({ baseUrl });
  const token = await client.POST('/auth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } });
  const headers = { Authorization: 'Bearer ' + (token.data?.access_token ?? '') };
  // X-Peppol-Participant-Id is required on every document route
  const inbox = await client.GET('/document/receive', { params: { header: { 'X-Peppol-Participant-Id': participant }, query: { limit: 10 } }, headers });
  const sent = await client.POST('/document/send', {
    params: { header: { 'Idempotency-Key': 'generated-client-1', 'X-Peppol-Participant-Id': participant } },
    headers,
    body: {
      metadata: {
        documentId: 'FA-1', documentTypeId: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice', processId: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
        senderParticipantId: participant, receiverParticipantId: '0245:1234567890', creationDateTime: '2026-01-15T10:00:00Z',
      },
      payload: '<Invoice/>', payloadFormat: 'XML',
    },
  });
  const status = sent.data ? await client.GET('/document/status/{providerDocumentId}', { params: { path: { providerDocumentId: sent.data.providerDocumentId }, header: { 'X-Peppol-Participant-Id': participant } }, headers }) : undefined;
  return (inbox.data?.documents.length ?? 0) + (status?.data ? 1 : 0);
}
`;

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/**
 * CI's check that both OpenAPI documents are taken by a common generator as they are: types from
 * openapi-typescript (its defaults), a small openapi-fetch program calling a few operations of each
 * door, compiled strictly; any diagnostic fails.
 */
describe('a client generated from the OpenAPI documents (openapi-typescript + openapi-fetch)', function () {
  this.timeout(240_000);
  let svc: TestService;
  let dir: string;
  before(async () => {
    svc = await startTestService();
    dir = await mkdtemp(join(tmpdir(), 'openapi-client-'));
  });
  after(async () => {
    await svc?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('type-checks under strict TypeScript', async () => {
    for (const [file, path] of [['native.ts', '/openapi.json'], ['sapi.ts', '/sapi/openapi.json']] as const) {
      const doc = await (await fetch(`${svc.root}${path}`)).text();
      await writeFile(join(dir, file), astToString(await openapiTS(doc)));
    }
    await writeFile(join(dir, 'program.ts'), PROGRAM);
    const program = ts.createProgram([join(dir, 'program.ts')], {
      strict: true, noEmit: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: false,
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [],
      // the temporary folder has no node_modules: openapi-fetch is the project's own
      baseUrl: dir, paths: { 'openapi-fetch': [packageDir('openapi-fetch')] },
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? `${d.file.fileName.replace(dir, '')}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
