import { oauthClientDecider } from '../../../commands/identity/oauth-client.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { oauthClientStream } from '../../../events/identity.ts';
import { findOAuthClient } from '../../../projections/identity/queries.ts';
import { findOrganisationPlan } from '../../../projections/tenancy/queries.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import { handleCommand } from '../../platform/handling/command-handler.ts';
import { matchesStoredHash, sameSecret } from './compare.ts';
import type { SigningKeyRing } from './signing-keys.ts';
import { ACCESS_TOKEN_LIFETIME_SECONDS, issueAccessToken } from './tokens.ts';
import type { Core } from '../../platform/core.ts';
import type { Credentials } from './credentials.ts';
import { newSecret, sha256Hex } from './credential-secrets.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock' | 'readModels'>;
type RevokingDeps = Deps & { auth: Credentials };
type Request = { actor: Actor; requestId: string };

/** POST /oauth2/clients: the secret is returned here once; only its SHA-256 is kept. */
export async function createOAuthClient(deps: Deps, request: Request & { name: string; scopes?: string | null }) {
  const clientId = `oc_${deps.ids.next().replace(/-/g, '')}`;
  const secret = newSecret(32);
  const handled = await handleCommand(deps, oauthClientStream(clientId), oauthClientDecider, {
    type: 'IssueOAuthClient', client_id: clientId, organisation_id: request.actor.organisationId, name: request.name, scopes: request.scopes,
    secret_hash: sha256Hex(secret), at: deps.clock.now().toISOString(), issued_by: request.actor.id,
  }, { metadata: requestMetadata(request.actor, request.requestId), expected: { newStream: true } });
  return { client_id: clientId, client_secret: secret, position: handled.position as Position };
}

/** DELETE /oauth2/clients/{id}: no more tokens, and the ones it holds are refused (here at once, elsewhere on the notice). */
export async function revokeOAuthClient(deps: RevokingDeps, request: Request & { clientId: string }): Promise<Position | null> {
  const handled = await handleCommand(deps, oauthClientStream(request.clientId), oauthClientDecider, {
    type: 'RevokeOAuthClient', client_id: request.clientId, organisation_id: request.actor.organisationId, at: deps.clock.now().toISOString(),
    revoked_by: request.actor.id,
  }, { metadata: requestMetadata(request.actor, request.requestId) });
  deps.auth.revocations.learnFrom(handled.events);
  return handled.position;
}

/** RFC 6749 §5.2 errors, answered as the RFC's body (not the native `detail` shape) by the token route. */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope',
    readonly status: 400 | 401,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

// a client id that is not ours still costs a hash comparison, so timing tells nothing
const DECOY_HASH = sha256Hex('decoy');

/** POST /oauth2/token, client_credentials only: a 15-minute access token for the client's organisation. */
export async function clientCredentialsToken(
  deps: Deps & { ring: SigningKeyRing },
  request: { grant_type?: string; client_id?: string; client_secret?: string; scope?: string },
) {
  if (!request.grant_type) throw new OAuthError('invalid_request', 400, 'grant_type is required');
  if (request.grant_type !== 'client_credentials') throw new OAuthError('unsupported_grant_type', 400, 'only client_credentials is supported');
  if (!request.client_id || !request.client_secret) throw new OAuthError('invalid_client', 401, 'client authentication failed');
  const client = await findOAuthClient(deps.readModels, request.client_id);
  const matches = matchesStoredHash(request.client_secret, client?.secret_hash ?? DECOY_HASH);
  if (!client || !matches || !client.is_active || !sameSecret(client.client_id, request.client_id)) {
    throw new OAuthError('invalid_client', 401, 'client authentication failed');
  }
  // RFC 6749 §3.3: a client may ask for less than it was registered with, never more
  const asked = request.scope?.split(' ').filter(Boolean) ?? client.scopes;
  const beyond = asked.filter((s) => !client.scopes.includes(s));
  if (beyond.length > 0) throw new OAuthError('invalid_scope', 400, `not registered for this client: ${beyond.join(' ')}`);
  const plan = (await findOrganisationPlan(deps.readModels, client.organisation_id)) ?? 'unknown';
  const token = await issueAccessToken(deps.ring, {
    subject: client.client_id, organisation_id: client.organisation_id, role: 'admin', plan, token_use: 'oauth_client', scopes: asked,
  }, ACCESS_TOKEN_LIFETIME_SECONDS, deps.clock.now());
  return { access_token: token, token_type: 'Bearer' as const, expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: asked.join(' ') };
}
