import { SapiErrorBody } from '../../../../schemas/sapi/errors.ts';
import { SapiRenewRequest, SapiRevokeRequest, SapiRevokeResponse, SapiTokenRequest, SapiTokenResponse, SapiTokenStatus } from '../../../../schemas/sapi/auth.ts';
import { defineSapiRoute, type SapiRoute } from '../../../doors/sapi/route.ts';
import { issueSapiToken, renewSapiToken, revokeSapiToken, type SapiAuthDeps } from './application.ts';

/** Seconds before expiry from which token status says should_refresh (sapi-sk.md, Endpoints). */
const SHOULD_REFRESH_BELOW_SECONDS = 180;

const error = (description: string) => ({ description, schema: SapiErrorBody });
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export function sapiAuthRoutes(deps: SapiAuthDeps): SapiRoute[] {
  return [
    defineSapiRoute({
      method: 'POST', path: '/auth/token', operationId: 'sapiToken', tags: ['auth'], auth: 'public',
      summary: 'An access token and a refresh token from client credentials',
      description:
        'A JSON body (not a form). Checks in this order: the body (SAPI-VAL-001; an unknown scope SAPI-VAL-SCOPE), an unknown client_id (SAPI-AUTH-001), the caller\'s address against the client\'s allowlist (SAPI-AUTH-IP), the lock (SAPI-AUTH-LOCKED with Retry-After, even with the right secret), the secret (SAPI-AUTH-001; counted: the 5th wrong secret within 15 minutes locks the client for 15 minutes and answers SAPI-AUTH-LOCKED), the client enabled (SAPI-DISABLED). An unknown client_id is never locked (there is nothing to lock). A lock is shown to the client\'s company with the addresses the wrong secrets came from (the native security log, and the sapi_client.locked_out webhook); an IP allowlist on the client prevents it, since requests from outside it are refused before they count.',
      body: SapiTokenRequest,
      responses: {
        200: { description: 'the token pair', schema: SapiTokenResponse },
        400: error('SAPI-VAL-001, SAPI-VAL-SCOPE'), 401: error('SAPI-AUTH-001'), 403: error('SAPI-AUTH-IP, SAPI-AUTH-LOCKED'), 503: error('SAPI-DISABLED'),
      },
      async handle({ body, ip, requestId }) {
        const answer = await issueSapiToken(deps, { clientId: body.client_id, clientSecret: body.client_secret, scope: body.scope, ip, requestId });
        return { status: 200, body: answer, headers: NO_STORE };
      },
    }),
    defineSapiRoute({
      method: 'POST', path: '/auth/renew', operationId: 'sapiRenew', tags: ['auth'], auth: 'public',
      summary: 'A new token pair for a refresh token; the refresh token presented is used up',
      description:
        'Rotates the pair: the answer carries a new access token and a new refresh token (30 days from now), with the scopes first granted and the organisation\'s plan now. The refresh token presented is refused from then on (SAPI-AUTH-001); presenting it again also revokes the family (reuse: both pairs end). Refused too: an expired or revoked refresh token, one issued before the client secret was rotated, a disabled client (SAPI-DISABLED) or an address outside the allowlist (SAPI-AUTH-IP).',
      body: SapiRenewRequest,
      responses: {
        200: { description: 'the new token pair', schema: SapiTokenResponse },
        400: error('SAPI-VAL-001'), 401: error('SAPI-AUTH-001'), 403: error('SAPI-AUTH-IP'), 503: error('SAPI-DISABLED'),
      },
      async handle({ body, ip, requestId }) {
        return { status: 200, body: await renewSapiToken(deps, { refreshToken: body.refresh_token, ip, requestId }), headers: NO_STORE };
      },
    }),
    defineSapiRoute({
      method: 'POST', path: '/auth/revoke', operationId: 'sapiRevoke', tags: ['auth'], auth: 'public',
      summary: 'Revoke a token pair by its access token or its refresh token',
      description:
        'Idempotent. Either token of a pair revokes the pair (its family: every access token renewed from it, and its refresh token); the gate refuses them (SAPI-AUTH-001) from this answer on. A token that is unknown, expired or already revoked revokes nothing and gets the same answer (as RFC 7009: revoking tells nothing about a token).',
      body: SapiRevokeRequest,
      responses: { 200: { description: 'revoked (or nothing to revoke)', schema: SapiRevokeResponse }, 400: error('SAPI-VAL-001') },
      async handle({ body, requestId }) {
        await revokeSapiToken(deps, { token: body.token, requestId });
        return { status: 200, body: { revoked: true } };
      },
    }),
    defineSapiRoute({
      method: 'GET', path: '/auth/token/status', operationId: 'sapiTokenStatus', tags: ['auth'], auth: 'api',
      summary: 'Whether the bearer access token is valid, how long it has left, and whether to renew',
      description: 'A valid token answers 200 with `should_refresh` true when fewer than 180 s remain; a token that is missing, invalid, expired or revoked gets SAPI-AUTH-001 (as on every /sapi route).',
      responses: { 200: { description: 'the token\'s validity', schema: SapiTokenStatus }, 401: error('SAPI-AUTH-001'), 403: error('SAPI-AUTH-IP'), 503: error('SAPI-DISABLED') },
      async handle({ actor }) {
        const left = Math.max(0, Math.floor((actor.expiresAt.getTime() - deps.clock.now().getTime()) / 1000));
        return {
          status: 200,
          body: {
            valid: true, client_id: actor.clientId, scope: actor.scopes.join(' '), expires_in: left,
            expires_at: actor.expiresAt.toISOString(), should_refresh: left < SHOULD_REFRESH_BELOW_SECONDS,
          },
          headers: NO_STORE,
        };
      },
    }),
  ];
}
