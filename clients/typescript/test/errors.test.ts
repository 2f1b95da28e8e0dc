import { expect } from 'chai';
import { createClient, createSapiClient, ok, ServiceError } from '../src/index.ts';
import { fakeServer } from './support/fake-server.ts';

describe('SDK ok(): data, or a ServiceError naming the code and the request id', () => {
  it('returns the data of a success', async () => {
    const server = await fakeServer([{ status: 200, body: { items: [], total: 0 } }]);
    try {
      const client = createClient({ baseUrl: server.root, apiKey: 'svc_test' });
      const page = ok(await client.GET('/companies/{company_id}/customers', { params: { path: { company_id: 'c' } } }));
      expect(page.total).to.equal(0);
    } finally {
      await server.close();
    }
  });

  it('throws the native code (detail.error), the rate limit\'s top-level one and the SAPI-SK error.code', async () => {
    const server = await fakeServer([
      { status: 404, headers: { 'X-Request-Id': 'req-1' }, body: { detail: { error: 'invoice_not_found' } } },
      { status: 429, headers: { 'Retry-After': '3600' }, body: { error: 'rate_limit_exceeded', retry_after: 3600 } },
      { status: 200, body: { access_token: 'at', token_type: 'Bearer', expires_in: 900, refresh_token: 'rt', scope: '' } },
      { status: 404, headers: { 'X-Correlation-Id': 'corr-1' }, body: { error: { category: 'VALIDATION', code: 'SAPI-DOC-NOT-FOUND', message: 'x', retryable: false, correlation_id: 'corr-1', details: [] } } },
    ]);
    try {
      const client = createClient({ baseUrl: server.root, apiKey: 'svc_test' });
      const invoice = () => client.GET('/companies/{company_id}/invoices/{invoice_id}', { params: { path: { company_id: 'c', invoice_id: 'i' } } });
      const thrown = async (call: () => Promise<unknown>) => call().then(() => expect.fail('no error'), (error: unknown) => error as ServiceError);
      const notFound = await thrown(async () => ok(await invoice()));
      expect(notFound).to.be.instanceOf(ServiceError).and.include({ status: 404, code: 'invoice_not_found', requestId: 'req-1' });
      expect(await thrown(async () => ok(await invoice()))).to.include({ status: 429, code: 'rate_limit_exceeded' });
      const sapi = createSapiClient({ baseUrl: server.root, clientId: 'c', clientSecret: 's', participantId: 'p' });
      const missing = await thrown(async () => ok(await sapi.GET('/document/status/{providerDocumentId}', { params: { path: { providerDocumentId: 'svc_sapi_doc_0' } } })));
      expect(missing).to.include({ status: 404, code: 'SAPI-DOC-NOT-FOUND', requestId: 'corr-1' });
    } finally {
      await server.close();
    }
  });
});
