import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/native.ts';
import type { Relaxed } from './relaxed.ts';
import { retryingFetch, type Fetch, type RetryOptions } from './retry.ts';

/** The native API's own prefix: paths in its OpenAPI document are relative to it. */
const API_PREFIX = '/api/v1';

export type NativeCredentials = { apiKey: string; token?: never } | { token: string; apiKey?: never };

export type NativeClientOptions = NativeCredentials & {
  /** the service's host root (https://api.example.sk) or its API root (…/api/v1) */
  baseUrl: string;
  retry?: RetryOptions;
  /** the fetch to send with (default: the global one) */
  fetch?: Fetch;
};

export type NativeClient = Client<Relaxed<paths>>;

/**
 * A client of the native API: every operation of /openapi.json, typed by path
 * (`client.POST('/companies/{company_id}/invoices', { params, body })`), authenticated with an
 * API key (X-Api-Key) or a bearer token (a JWT, or an OAuth 2.0 client-credentials token).
 * POSTs carry an Idempotency-Key (a UUID) unless the call sets one; retryable answers are retried.
 */
export function createClient(options: NativeClientOptions): NativeClient {
  const auth: Record<string, string> = options.apiKey !== undefined ? { 'X-Api-Key': options.apiKey } : { Authorization: `Bearer ${options.token}` };
  const send: Fetch = options.fetch ?? ((request) => fetch(request));
  return createFetchClient<Relaxed<paths>>({ baseUrl: apiRoot(options.baseUrl), headers: auth, fetch: retryingFetch(send, options.retry) });
}

/** The API root, whether the caller gave the host root or the API root itself. */
export function apiRoot(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith(API_PREFIX) ? trimmed : trimmed + API_PREFIX;
}
