import { SapiRefusal } from './errors.ts';

/** sapi-sk.md, Authentication rule 3: sending and status, and the inbound endpoints. */
export const SAPI_SCOPES = ['document:send', 'document:receive'] as const;
export type SapiScope = (typeof SAPI_SCOPES)[number];

const isScope = (s: string): s is SapiScope => (SAPI_SCOPES as readonly string[]).includes(s);

/**
 * The scopes a token request asks for: both when `scope` is absent or blank, else exactly the
 * space-separated ones named. A scope we do not know is SAPI-VAL-SCOPE (a malformed request: the
 * token endpoint's validation), as against SAPI-AUTH-SCOPE, a valid token used beyond its scopes.
 */
export function requestedScopes(scope: string | undefined): SapiScope[] {
  const named = (scope ?? '').split(' ').filter((s) => s !== '');
  if (named.length === 0) return [...SAPI_SCOPES];
  const unknown = named.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new SapiRefusal('SAPI-VAL-SCOPE', `unknown scope: ${unknown.join(' ')}`, unknown.map((s) => ({ field: 'scope', issue: `unknown scope ${JSON.stringify(s)}; known: ${SAPI_SCOPES.join(', ')}` })));
  }
  return SAPI_SCOPES.filter((s) => named.includes(s));
}

/** A route's scope check: the token must carry it (SAPI-AUTH-SCOPE, 403). */
export function requireScope(granted: readonly string[], needed: SapiScope): void {
  if (granted.includes(needed)) return;
  throw new SapiRefusal('SAPI-AUTH-SCOPE', `the access token lacks the scope ${needed}`, [{ field: 'scope', issue: `requires ${needed}` }]);
}
