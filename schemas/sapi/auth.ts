import { Type, type Static } from '@sinclair/typebox';

/* SAPI-SK token routes (sapi-sk.md, Endpoints and Authentication): OAuth fields in snake_case. */

export const SapiTokenRequest = Type.Object(
  {
    client_id: Type.String({ minLength: 1, maxLength: 100 }),
    client_secret: Type.String({ minLength: 1, maxLength: 200 }),
    grant_type: Type.Literal('client_credentials'),
    scope: Type.Optional(Type.String({ maxLength: 200, description: 'space-separated: document:send, document:receive; absent or blank grants both' })),
  },
  { title: 'SapiTokenRequest', description: 'A JSON body, not a form.' },
);

export const SapiTokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'Bearer token for /sapi, 900 s' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'seconds: 900' }),
    refresh_token: Type.String({ description: 'for POST /sapi/auth/renew, 30 days; used once' }),
    scope: Type.String({ description: 'the granted scopes, space-separated' }),
  },
  { title: 'SapiTokenResponse' },
);
export type SapiTokenResponse = Static<typeof SapiTokenResponse>;

export const SapiRenewRequest = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 200 }) }, { title: 'SapiRenewRequest' });

export const SapiRevokeRequest = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 4000, description: 'an access token or a refresh token' }) },
  { title: 'SapiRevokeRequest' },
);

export const SapiRevokeResponse = Type.Object(
  { revoked: Type.Literal(true, { description: 'always true: a token that is unknown, expired or already revoked revokes nothing and gets the same answer' }) },
  { title: 'SapiRevokeResponse' },
);

export const SapiTokenStatus = Type.Object(
  {
    valid: Type.Literal(true, { description: 'an invalid, expired or revoked token gets SAPI-AUTH-001 instead' }),
    client_id: Type.String(),
    scope: Type.String(),
    expires_in: Type.Integer({ description: 'seconds left' }),
    expires_at: Type.String({ format: 'date-time' }),
    should_refresh: Type.Boolean({ description: 'true when fewer than 180 s remain: renew now' }),
  },
  { title: 'SapiTokenStatus' },
);
