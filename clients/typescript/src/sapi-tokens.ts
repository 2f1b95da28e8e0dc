import type { Client } from 'openapi-fetch';
import type { paths } from './generated/sapi.ts';
import type { Relaxed } from './relaxed.ts';

/** The token answer of POST /sapi/auth/token and /sapi/auth/renew, read from the paths (not a component name). */
export type SapiToken = paths['/auth/token']['post']['responses'][200]['content']['application/json'];

export interface SapiCredentials {
  clientId: string;
  clientSecret: string;
  /** space-separated scopes to ask for; absent grants both (document:send document:receive) */
  scope?: string;
}

export interface TokenSource {
  /** a valid access token: the cached one, else a renewed one, else a new one */
  get(): Promise<string>;
  /** forgets `token` (refused with 401): the next get() obtains a new pair with the credentials */
  invalidate(token: string): void;
}

/** The token endpoint refused the credentials (its SAPI-SK error body is kept). */
export class SapiAuthError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(`SAPI-SK authentication failed (${status}): ${JSON.stringify(body)}`);
    this.name = 'SapiAuthError';
    this.status = status;
    this.body = body;
  }
}

/**
 * The SAPI-SK token life cycle: obtain a pair with the client credentials, keep the access token
 * until `refreshBeforeSeconds` before it expires (the service says `should_refresh` at 180 s), then
 * renew with the refresh token (used once: the answer is a new pair), or obtain afresh when that
 * fails. One request at a time goes for a token; concurrent callers share it.
 */
export function tokenSource(
  auth: Client<Relaxed<paths>>, credentials: SapiCredentials, options: { refreshBeforeSeconds?: number; now?: () => number } = {},
): TokenSource {
  const { refreshBeforeSeconds = 180, now = Date.now } = options;
  let current: { access: string; refresh: string | null; renewAt: number } | null = null;
  let pending: Promise<string> | null = null;

  const keep = (token: SapiToken): string => {
    current = { access: token.access_token, refresh: token.refresh_token, renewAt: now() + (token.expires_in - refreshBeforeSeconds) * 1000 };
    return token.access_token;
  };
  const obtain = async (): Promise<string> => {
    const { data, error, response } = await auth.POST('/auth/token', {
      body: { client_id: credentials.clientId, client_secret: credentials.clientSecret, grant_type: 'client_credentials', ...(credentials.scope ? { scope: credentials.scope } : {}) },
    });
    if (!data) throw new SapiAuthError(response.status, error);
    return keep(data);
  };
  const renew = async (refreshToken: string): Promise<string> => {
    const { data } = await auth.POST('/auth/renew', { body: { refresh_token: refreshToken } });
    return data ? keep(data) : obtain();
  };
  const fetchToken = async (): Promise<string> => {
    const refresh = current?.refresh;
    current = null;
    return refresh ? renew(refresh) : obtain();
  };

  return {
    get() {
      if (current && now() < current.renewAt) return Promise.resolve(current.access);
      pending ??= fetchToken().finally(() => {
        pending = null;
      });
      return pending;
    },
    invalidate(token) {
      // a refused access token says nothing good about its refresh token (revoked together): start over
      if (current?.access === token) current = null;
    },
  };
}
