import { randomUUID } from 'node:crypto';
import { SAPI_SCOPES, type SapiScope } from '../../commands/sapi/scopes.ts';
import { issueSapiAccessToken } from '../../src/modules/sapi/auth/tokens.ts';
import type { TestService } from './service.ts';

export interface SapiTestClient {
  client_id: string;
  participant_id: string;
  company_id: string;
  token: string;
  /** fetch under /sapi with this client's token and participant header (both overridable) */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers; text: string }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * A SAPI client of a demo company with an access token minted directly (as POST /sapi/auth/token
 * would), for suites about the document routes. The token routes have suites of their own.
 */
export async function sapiTestClient(svc: TestService, company = 0, options: { scopes?: SapiScope[]; plan?: string } = {}): Promise<SapiTestClient> {
  const demoCompany = svc.demo.companies[company];
  if (!demoCompany) throw new Error(`the demo has no company ${company}`);
  const token = await issueSapiAccessToken(await svc.services.identity.ring(), {
    client_id: demoCompany.sapi.client_id, organisation_id: svc.demo.organisation_id, company_id: demoCompany.id,
    participant_id: demoCompany.sapi.participant_id, scopes: options.scopes ?? [...SAPI_SCOPES], plan: options.plan ?? svc.demo.plan,
    family_id: randomUUID(),
  }, svc.services.clock.now());
  return {
    client_id: demoCompany.sapi.client_id,
    participant_id: demoCompany.sapi.participant_id,
    company_id: demoCompany.id,
    token,
    async call(method, path, body, headers = {}) {
      const response = await fetch(`${svc.root}/sapi${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`, 'x-peppol-participant-id': demoCompany.sapi.participant_id,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed, headers: response.headers, text };
    },
  };
}

/** Asserts the SAPI-SK error envelope and returns its error object. */
export function sapiError(response: { status: number; body: any; headers: Headers }): { category: string; code: string; message: string; retryable: boolean; correlation_id: string; details: { field: string; issue: string }[] } { // eslint-disable-line @typescript-eslint/no-explicit-any
  const error = response.body?.error;
  if (!error || typeof error.code !== 'string') throw new Error(`not a SAPI error envelope (${response.status}): ${JSON.stringify(response.body)}`);
  if (response.headers.get('x-correlation-id') !== error.correlation_id) throw new Error('the correlation id header differs from the envelope');
  return error;
}
