import { badCredentials, assertAuthenticated, disabledClient, outsideAllowlist, sapiClientDecider, type SapiClientState } from '../../../../commands/sapi/client.ts';
import { allowedAddress, canonicalAllowlist } from '../../../../commands/sapi/client-allowlist.ts';
import { SAPI_SCOPES, requestedScopes, type SapiScope } from '../../../../commands/sapi/scopes.ts';
import { assertRenewed, invalidRefreshToken, sapiTokenFamilyDecider } from '../../../../commands/sapi/token-family.ts';
import type { Actor } from '../../../../commands/shared/actor.ts';
import { DomainError } from '../../../../commands/shared/domain-error.ts';
import { sapiTokenFamilyStream } from '../../../../events/sapi-clients.ts';
import { sapiClientStream } from '../../../../events/tenancy.ts';
import { findCompany, findOrganisationPlan } from '../../../../projections/tenancy/queries.ts';
import { newSecret, sha256Hex } from '../../identity/index.ts';
import { requestMetadata } from '../../../platform/handling/metadata.ts';
import type { Core } from '../../../platform/core.ts';
import type { EventMetadata, Position } from '../../../platform/eventstore/port.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import { readAndFold } from '../../../platform/handling/read-and-fold.ts';
import { matchesStoredHash } from '../../identity/index.ts';
import type { SigningKeys } from '../../identity/index.ts';
import { SAPI_ACCESS_TOKEN_SECONDS, SAPI_REFRESH_TOKEN_SECONDS, issueSapiAccessToken, verifySapiAccessToken } from './tokens.ts';
import type { SapiGate } from './gate.ts';
import { looksLikeRefreshToken, newRefreshToken, readRefreshToken } from './refresh-token.ts';

export type SapiAuthDeps = Pick<Core, 'store' | 'ids' | 'clock' | 'readModels' | 'projections' | 'config'> & {
  identity: SigningKeys;
  /** the gate's rows to forget once a change of a client or family is shown */
  gate?: Pick<SapiGate, 'forget'>;
};

/** The token response (sapi-sk.md, Token response); OAuth fields in snake_case. */
export interface SapiTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** Conflicts on a client's stream are mostly parallel failed attempts: decide again on the newer state. */
const RETRIES = 10;
const READ_MODEL = ['sapi-clients'];

/** A /sapi/auth request acts for no user or key: the SAPI client (or the token family a refresh token names) is recorded beside. */
const sapiMetadata = (requestId: string, subject: { sapi_client_id: string } | { sapi_token_family_id: string }): EventMetadata => ({
  causationId: requestId, correlationId: requestId, actor: { type: 'system', id: 'sapi-auth' }, ...subject,
});

/** Once the read model shows the change, the gate reads it afresh: the change applies from the answer on. */
async function shown(deps: SapiAuthDeps, position: Position | null, clientId: string): Promise<void> {
  if (!position) return;
  await deps.projections.caughtUp(position, deps.config.readYourWritesTimeoutMs, READ_MODEL);
  deps.gate?.forget(clientId);
}

// ---------------------------------------------------------------- installation and management

/**
 * Installs the connector for a company: a new client locked to the company's Peppol participant.
 * The secret is returned here once; only its SHA-256 is stored.
 */
export async function installSapiClient(deps: SapiAuthDeps, input: { actor: Actor; requestId: string; companyId: string }) {
  const company = await findCompany(deps.readModels, input.actor.organisationId, input.companyId);
  if (!company) throw new DomainError('company_not_found', 'company not found');
  if (!company.peppol_id?.trim()) {
    throw new DomainError('company_has_no_participant', 'the company has no Peppol participant ID to lock SAPI-SK credentials to');
  }
  const clientId = `sapi_${deps.ids.next().replace(/-/g, '')}`;
  const secret = newSecret();
  const handled = await handleCommand(deps, sapiClientStream(clientId), sapiClientDecider, {
    type: 'IssueSapiClient',
    data: {
      client_id: clientId, organisation_id: company.organisation_id, company_id: company.id, participant_id: company.peppol_id,
      secret_hash: sha256Hex(secret), issued_at: deps.clock.now().toISOString(),
    },
  }, { metadata: requestMetadata(input.actor, input.requestId), expected: { newStream: true } });
  await shown(deps, handled.position, clientId);
  return { client_id: clientId, client_secret: secret };
}

type Manage = { actor: Actor; requestId: string; clientId: string };

async function manage(deps: SapiAuthDeps, input: Manage, command: (at: string) => Parameters<typeof sapiClientDecider.decide>[0]) {
  const handled = await handleCommand(deps, sapiClientStream(input.clientId), sapiClientDecider, command(deps.clock.now().toISOString()), {
    metadata: requestMetadata(input.actor, input.requestId), expected: { retry: { onVersionConflict: RETRIES } },
  });
  await shown(deps, handled.position, input.clientId);
}

/** A new secret, returned once: the old one stops working, and every token family opened before ends. */
export async function rotateSapiClientSecret(deps: SapiAuthDeps, input: Manage): Promise<{ client_secret: string }> {
  const secret = newSecret();
  await manage(deps, input, (at) => ({ type: 'RotateSapiClientSecret', client_id: input.clientId, organisation_id: input.actor.organisationId, secret_hash: sha256Hex(secret), at }));
  return { client_secret: secret };
}

export async function setSapiClientAllowlist(deps: SapiAuthDeps, input: Manage & { cidrs: string[] }): Promise<void> {
  const cidrs = canonicalAllowlist(input.cidrs);
  await manage(deps, input, (at) => ({ type: 'SetSapiClientAllowlist', client_id: input.clientId, organisation_id: input.actor.organisationId, cidrs, at }));
}

export async function setSapiClientEnabled(deps: SapiAuthDeps, input: Manage & { enabled: boolean }): Promise<void> {
  const type = input.enabled ? 'EnableSapiClient' : 'DisableSapiClient';
  await manage(deps, input, (at) => ({ type, client_id: input.clientId, organisation_id: input.actor.organisationId, at }));
}

// ---------------------------------------------------------------- tokens

type ActiveClient = Extract<SapiClientState, { status: 'active' }>;

async function tokenPair(deps: SapiAuthDeps, client: ActiveClient, familyId: string, scopes: SapiScope[], refreshToken: string): Promise<SapiTokenResponse> {
  // the plan now: a plan change applies with the next token (the rate limit reads the claim)
  const plan = (await findOrganisationPlan(deps.readModels, client.organisation_id)) ?? 'unknown';
  const access = await issueSapiAccessToken(await deps.identity.ring(), {
    client_id: client.client_id, organisation_id: client.organisation_id, company_id: client.company_id, participant_id: client.participant_id,
    scopes, plan, family_id: familyId,
  }, deps.clock.now());
  return { access_token: access, token_type: 'Bearer', expires_in: SAPI_ACCESS_TOKEN_SECONDS, refresh_token: refreshToken, scope: scopes.join(' ') };
}

const refreshExpiry = (now: Date) => new Date(now.getTime() + SAPI_REFRESH_TOKEN_SECONDS * 1000).toISOString();

/**
 * POST /sapi/auth/token: the scope first (an unknown one is SAPI-VAL-SCOPE and counts as nothing),
 * then the client's checks in the order sapiClientDecider documents (address, lock, secret,
 * enabled). A wrong secret is recorded on the client's stream before the refusal, so the lock-out
 * holds across instances.
 */
export async function issueSapiToken(
  deps: SapiAuthDeps,
  input: { clientId: string; clientSecret: string; scope: string | undefined; ip: string; requestId: string },
): Promise<SapiTokenResponse> {
  const scopes = requestedScopes(input.scope);
  const at = deps.clock.now().toISOString();
  let known = false;
  const handled = await handleCommand(deps, sapiClientStream(input.clientId), sapiClientDecider, (state) => {
    known = state.status === 'active';
    // an unknown client is compared against a stand-in hash too, so both refusals take as long
    const secretMatches = matchesStoredHash(input.clientSecret, state.status === 'active' ? state.secret_hash : UNKNOWN_CLIENT_HASH) && known;
    return { type: 'AuthenticateSapiClient' as const, client_id: input.clientId, secret_matches: secretMatches, ip: input.ip, at };
  }, { metadata: sapiMetadata(input.requestId, { sapi_client_id: input.clientId }), expected: { retry: { onVersionConflict: RETRIES } } });
  assertAuthenticated(handled.events);
  const client = handled.state;
  if (client.status !== 'active') throw badCredentials();

  const familyId = deps.ids.next();
  const refresh = newRefreshToken(familyId);
  await handleCommand(deps, sapiTokenFamilyStream(familyId), sapiTokenFamilyDecider, {
    type: 'StartSapiTokenFamily', family_id: familyId, client_id: client.client_id, organisation_id: client.organisation_id, scopes,
    refresh_hash: refresh.hash, refresh_expires_at: refreshExpiry(deps.clock.now()), at,
  }, { metadata: sapiMetadata(input.requestId, { sapi_client_id: client.client_id }), expected: { newStream: true } });
  return tokenPair(deps, client, familyId, scopes, refresh.token);
}

const UNKNOWN_CLIENT_HASH = sha256Hex('no such client');

const knownScopes = (scopes: readonly string[]): SapiScope[] => SAPI_SCOPES.filter((s) => scopes.includes(s));

/**
 * POST /sapi/auth/renew: the refresh token's family, then its client (address, enabled), then the
 * token itself (current, not expired, not from before a secret rotation). A used one revokes the
 * family (reuse) and is refused.
 */
export async function renewSapiToken(deps: SapiAuthDeps, input: { refreshToken: string; ip: string; requestId: string }): Promise<SapiTokenResponse> {
  const presented = readRefreshToken(input.refreshToken);
  if (!presented) throw invalidRefreshToken();
  const now = deps.clock.now();
  const renewal = newRefreshToken(presented.familyId);
  let client: ActiveClient | null = null;
  const handled = await handleCommand(deps, sapiTokenFamilyStream(presented.familyId), sapiTokenFamilyDecider, async (family) => {
    if (family.status !== 'active') throw invalidRefreshToken();
    const read = await readAndFold(deps.store, sapiClientStream(family.client_id), sapiClientDecider);
    if (read.state.status !== 'active') throw invalidRefreshToken();
    if (!allowedAddress(read.state.cidrs, input.ip)) throw outsideAllowlist(input.ip);
    if (!read.state.enabled) throw disabledClient();
    client = read.state;
    return {
      type: 'RenewSapiToken' as const, presented_hash: presented.hash, new_hash: renewal.hash, new_expires_at: refreshExpiry(now),
      secret_rotated_at: read.state.secret_rotated_at, at: now.toISOString(),
    };
  }, { metadata: sapiMetadata(input.requestId, { sapi_token_family_id: presented.familyId }), expected: { retry: { onVersionConflict: RETRIES } } });
  // a reuse revoked the family: the gate refuses its newer tokens once this refusal is answered
  const revoked = handled.events.find((e) => e.type === 'SapiTokenFamilyRevoked');
  if (revoked) await shown(deps, handled.position, revoked.data.client_id);
  assertRenewed(handled.events);
  const family = handled.state;
  if (!client || family.status !== 'active') throw invalidRefreshToken();
  return tokenPair(deps, client, family.family_id, knownScopes(family.scopes), renewal.token);
}

/**
 * POST /sapi/auth/revoke: a refresh token of ours revokes its family; a valid access token
 * revokes its family too (access tokens are not recorded one by one). Anything else, an expired
 * or unknown token included, revokes nothing; the answer is the same (RFC 7009: the caller learns
 * nothing about a token it does not hold). The gate refuses the family once this answers.
 */
export async function revokeSapiToken(deps: SapiAuthDeps, input: { token: string; requestId: string }): Promise<void> {
  const at = deps.clock.now();
  if (looksLikeRefreshToken(input.token)) {
    const presented = readRefreshToken(input.token);
    if (!presented) return;
    const handled = await handleCommand(deps, sapiTokenFamilyStream(presented.familyId), sapiTokenFamilyDecider, (family) => ({
      type: 'RevokeSapiTokenFamily' as const, family_id: presented.familyId, client_id: family.status === 'none' ? '' : family.client_id,
      presented_hash: presented.hash, at: at.toISOString(),
    }), { metadata: sapiMetadata(input.requestId, { sapi_token_family_id: presented.familyId }), expected: { retry: { onVersionConflict: RETRIES } } });
    const revoked = handled.events.find((e) => e.type === 'SapiTokenFamilyRevoked');
    if (revoked) await shown(deps, handled.position, revoked.data.client_id);
    return;
  }
  let claims;
  try {
    claims = await verifySapiAccessToken(await deps.identity.ring(), input.token.trim(), at);
  } catch {
    return;
  }
  const handled = await handleCommand(deps, sapiTokenFamilyStream(claims.family_id), sapiTokenFamilyDecider, {
    type: 'RevokeSapiTokenFamily', family_id: claims.family_id, client_id: claims.client_id, at: at.toISOString(),
  }, { metadata: sapiMetadata(input.requestId, { sapi_client_id: claims.client_id }), expected: { retry: { onVersionConflict: RETRIES } } });
  await shown(deps, handled.position, claims.client_id);
}
