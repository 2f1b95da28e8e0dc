import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/sapi.ts';
import type { Relaxed } from './relaxed.ts';
import { retryingFetch, withIdempotencyKey, type Fetch, type RetryOptions } from './retry.ts';
import { tokenSource, type SapiCredentials, type TokenSource } from './sapi-tokens.ts';

const SAPI_PREFIX = '/sapi';
const PARTICIPANT_HEADER = 'X-Peppol-Participant-Id';

export interface SapiClientOptions extends SapiCredentials {
  /** the service's host root (https://api.example.sk) or the connector's root (…/sapi) */
  baseUrl: string;
  /** the Peppol participant the credentials are locked to: sent as X-Peppol-Participant-Id */
  participantId: string;
  retry?: RetryOptions;
  /** renew this many seconds before the access token expires (default 180, when the service says should_refresh) */
  refreshBeforeSeconds?: number;
  /** the clock, in epoch milliseconds (tests move it) */
  now?: () => number;
  fetch?: Fetch;
}

export type SapiClient = Client<Relaxed<paths>> & { tokens: TokenSource };

/**
 * A client of the SAPI-SK connector: every operation of /sapi/openapi.json, typed by path
 * (`sapi.POST('/document/send', { body })`). It obtains and renews its own access token, sends
 * the participant header, gives each POST an Idempotency-Key unless the call sets one (the send
 * requires one), retries what the error envelope marks retryable, and on a 401 obtains a new
 * token and sends the request once more.
 */
export function createSapiClient(options: SapiClientOptions): SapiClient {
  const send: Fetch = retryingFetch(options.fetch ?? ((request) => fetch(request)), options.retry);
  const baseUrl = sapiRoot(options.baseUrl);
  const auth = createFetchClient<Relaxed<paths>>({ baseUrl, fetch: send });
  const tokens = tokenSource(auth, options, { refreshBeforeSeconds: options.refreshBeforeSeconds, now: options.now });

  const authorised = async (request: Request, token: string): Promise<Response> => {
    const headers = new Headers(request.headers);
    headers.set('Authorization', `Bearer ${token}`);
    if (!headers.has(PARTICIPANT_HEADER)) headers.set(PARTICIPANT_HEADER, options.participantId);
    return send(new Request(request, { headers }));
  };
  const withToken: Fetch = async (given) => {
    const request = withIdempotencyKey(given); // the repeat after a 401 keeps the key
    const spare = request.clone(); // and the body
    const token = await tokens.get();
    const response = await authorised(request, token);
    if (response.status !== 401) return response;
    tokens.invalidate(token);
    await response.body?.cancel();
    return authorised(spare, await tokens.get());
  };
  return Object.assign(createFetchClient<Relaxed<paths>>({ baseUrl, fetch: withToken }), { tokens });
}

/** The connector's root, whether the caller gave the host root or /sapi itself. */
export function sapiRoot(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith(SAPI_PREFIX) ? trimmed : trimmed + SAPI_PREFIX;
}
