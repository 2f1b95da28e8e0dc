import { expect } from 'chai';
import createFetchClient from 'openapi-fetch';
import type { Relaxed } from '../src/index.ts';

/** A document that requires the headers the clients fill, as the SAPI-SK one is to (issue 40, part 2). */
interface Strict {
  '/document/send': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    post: {
      parameters: { query?: never; header: { 'Idempotency-Key': string; 'X-Peppol-Participant-Id': string }; path?: never; cookie?: never };
      requestBody: { content: { 'application/json': { payload: string } } };
      responses: { 202: { headers: { [name: string]: unknown }; content: { 'application/json': { providerDocumentId: string } } } };
    };
  };
  '/invoices/{invoice_id}': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    put: {
      parameters: { query?: never; header: { 'If-Match': string; 'Idempotency-Key'?: string }; path: { invoice_id: string }; cookie?: never };
      requestBody: { content: { 'application/json': { note: string } } };
      responses: { 200: { headers: { [name: string]: unknown }; content: { 'application/json': { version: number } } } };
    };
  };
}

/**
 * A compile-time rule (npm run typecheck proves it; the run only builds the calls): headers the
 * clients fill are optional to the caller even where the document requires them, other required
 * headers are not.
 */
describe('SDK types: headers the client fills are optional, others stay required', () => {
  it('type-checks a send without Idempotency-Key or participant header, and refuses a PUT without If-Match', () => {
    const client = createFetchClient<Relaxed<Strict>>({ baseUrl: 'http://127.0.0.1:9', fetch: async () => new Response('{}', { status: 202 }) });
    const calls = [
      () => client.POST('/document/send', { body: { payload: '<Invoice/>' } }),
      () => client.POST('/document/send', { params: { header: { 'Idempotency-Key': 'k' } }, body: { payload: '<Invoice/>' } }),
      () => client.PUT('/invoices/{invoice_id}', { params: { path: { invoice_id: 'i' }, header: { 'If-Match': '3' } }, body: { note: 'n' } }),
      // @ts-expect-error If-Match is the caller's to give
      () => client.PUT('/invoices/{invoice_id}', { params: { path: { invoice_id: 'i' } }, body: { note: 'n' } }),
    ];
    expect(calls).to.have.length(4);
  });
});
