import { Type } from '@sinclair/typebox';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { OAUTH_CLIENT_NAME_MAX } from '../../../commands/identity/oauth-client.ts';
import { findOAuthClient, listOAuthClients } from '../../../projections/identity/queries.ts';
import type { OAuthClientRow } from '../../../projections/identity/rows.ts';
import { ErrorBody, Page, PagingQuery } from '../../../schemas/common/index.ts';
import { OAuthError, clientCredentialsToken, createOAuthClient, revokeOAuthClient } from './oauth-clients.ts';
import type { Core } from '../../platform/core.ts';
import type { Credentials } from './credentials.ts';
import type { SigningKeys } from './signing-keys.ts';
import { forbiddenCharacter } from '../../platform/http/index.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { idempotent } from '../idempotency/index.ts';
import { listPage, pageRequest } from '../../doors/native/list-page.ts';
import { recoverOAuthClientCreate } from './recovery.ts';

const ClientCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: OAUTH_CLIENT_NAME_MAX }),
    scopes: Type.Optional(Type.Union([Type.String({ maxLength: 200, description: 'comma-separated; default invoices:read,invoices:write,invoices:send' }), Type.Null()])),
  },
  { additionalProperties: false },
);
const Client = Type.Object({ client_id: Type.String(), name: Type.String(), scopes: Type.String({ description: 'comma-separated' }), is_active: Type.Boolean(), created_at: Type.String({ format: 'date-time' }) });
const ClientCreated = Type.Composite([Client, Type.Object({ client_secret: Type.String({ description: 'shown this once: store it now' }) })]);
// RFC 6749 §3.2: unrecognised parameters are ignored, and every refusal is the RFC's own body,
// so nothing here is refused by the schema
const TokenRequest = Type.Object(
  { grant_type: Type.Optional(Type.String()), client_id: Type.Optional(Type.String()), client_secret: Type.Optional(Type.String()), scope: Type.Optional(Type.String()) },
  { additionalProperties: true },
);
const Token = Type.Object({ access_token: Type.String(), token_type: Type.Literal('Bearer'), expires_in: Type.Integer(), scope: Type.String() });
const OAuthErrorBody = Type.Object({ error: Type.String(), error_description: Type.String() });
const forbidden = { description: '`insufficient_role`: OAuth clients are managed by admins (or an API key)', schema: ErrorBody };

const clientBody = (row: Pick<OAuthClientRow, 'client_id' | 'name' | 'scopes' | 'is_active' | 'created_at'>) => ({
  client_id: row.client_id, name: row.name, scopes: row.scopes.join(','), is_active: row.is_active, created_at: new Date(row.created_at).toISOString(),
});

/** HTTP Basic client authentication (RFC 6749 §2.3.1), which the RFC prefers to a body. */
function basicCredentials(header: string | undefined): { client_id: string; client_secret: string } | null {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? '')?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const credentials = { client_id: decodeURIComponent(decoded.slice(0, colon)), client_secret: decodeURIComponent(decoded.slice(colon + 1)) };
    // text no store can hold is no credential, as the platform refuses it in a body
    return forbiddenCharacter(credentials.client_id) || forbiddenCharacter(credentials.client_secret) ? null : credentials;
  } catch {
    return null; // not percent-encoded text (a lone %): not credentials
  }
}

export function oauthRoutes(deps: Core & { auth: Credentials; identity: SigningKeys }): Route[] {
  const { readModels, projections, config } = deps;
  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/oauth2/clients', operationId: 'createOAuthClient', tags: ['oauth2'], auth: 'api', permission: 'oauth_clients.manage',
      summary: 'Register an OAuth 2.0 client (client credentials); the secret is in the answer, once',
      body: ClientCreate,
      responses: { 201: { description: 'the client and, once, its secret', schema: ClientCreated }, 403: forbidden },
      async handle({ body, actor, requestId }) {
        const created = await createOAuthClient(deps, { actor, requestId, name: body.name, scopes: body.scopes });
        await projections.caughtUp(created.position, config.readYourWritesTimeoutMs, ['identity']);
        const row = await findOAuthClient(readModels, created.client_id);
        if (!row || row.organisation_id !== actor.organisationId) throw new DomainError('oauth_client_not_found', 'OAuth client not found');
        return { status: 201, body: { ...clientBody(row), client_secret: created.client_secret } };
      },
    }), { secretFields: ['client_secret'], recover: recoverOAuthClientCreate(deps) }),
    defineRoute({
      method: 'GET', path: '/oauth2/clients', operationId: 'listOAuthClients', tags: ['oauth2'], auth: 'api', permission: 'oauth_clients.manage',
      summary: 'The organisation\'s OAuth clients, without secrets',
      query: PagingQuery,
      responses: { 200: { description: 'newest first, revoked ones included', schema: Page(Client) }, 403: forbidden },
      async handle({ actor, query }) {
        return { status: 200, body: listPage(await listOAuthClients(readModels, actor.organisationId, pageRequest(query)), query, clientBody) };
      },
    }),
    defineRoute({
      method: 'DELETE', path: '/oauth2/clients/{client_id}', operationId: 'revokeOAuthClient', tags: ['oauth2'], auth: 'api', permission: 'oauth_clients.manage',
      summary: 'Revoke a client: it gets no more tokens, and the ones it holds are refused (this instance at once, the others on the revocation notice)',
      params: Type.Object({ client_id: Type.String({ maxLength: 64 }) }),
      responses: { 200: { description: 'acknowledgement', schema: Type.Object({ id: Type.String(), message: Type.String() }) }, 403: forbidden, 404: { description: '`oauth_client_not_found`', schema: ErrorBody } },
      async handle({ params, actor, requestId }) {
        const position = await revokeOAuthClient(deps, { actor, requestId, clientId: params.client_id });
        if (position) await projections.caughtUp(position, config.readYourWritesTimeoutMs, ['identity']);
        return { status: 200, body: { id: params.client_id, message: 'OAuth client revoked' } };
      },
    }),
    defineRoute({
      method: 'POST', path: '/oauth2/token', operationId: 'oauthToken', tags: ['oauth2'], auth: 'public', form: true,
      summary: 'Exchange client credentials for a 15-minute access token (RFC 6749 client_credentials)', bodyOptional: true,
      description: 'application/x-www-form-urlencoded (as RFC 6749 sends it) or JSON. Client authentication by HTTP Basic or by client_id and client_secret in the body. Errors are the RFC\'s: `unsupported_grant_type`, `invalid_client`, `invalid_request`, `invalid_scope` (a `scope` beyond the client\'s). Unknown parameters are ignored. No refresh token.',
      body: TokenRequest,
      responses: { 200: { description: 'the token', schema: Token }, 400: { description: 'RFC 6749 error', schema: OAuthErrorBody }, 401: { description: '`invalid_client`', schema: OAuthErrorBody, headers: [{ name: 'WWW-Authenticate', description: '`Basic realm="oauth2"`: the client may authenticate with HTTP Basic', schema: Type.String() }] } },
      async handle({ body, headers }) {
        const basic = basicCredentials(headers.authorization);
        const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
        try {
          const token = await clientCredentialsToken({ ...deps, ring: await deps.identity.ring() }, { ...(body ?? {}), ...(basic ?? {}) });
          return { status: 200, body: token, headers: noStore };
        } catch (error) {
          if (!(error instanceof OAuthError)) throw error;
          const challenge: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Basic realm="oauth2"' } : {};
          return { status: error.status, body: { error: error.error, error_description: error.description }, headers: { ...noStore, ...challenge } };
        }
      },
    }),
  ];
}
