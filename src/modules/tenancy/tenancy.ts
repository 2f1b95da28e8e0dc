import type { Actor, Role } from '../../../commands/shared/actor.ts';
import { DEFAULT_API_KEY_SCOPES, apiKeyDecider } from '../../../commands/tenancy/api-key.ts';
import { companyDecider } from '../../../commands/tenancy/company.ts';
import { organisationDecider } from '../../../commands/tenancy/organisation.ts';
import { sapiClientDecider } from '../../../commands/sapi/client.ts';
import { USER_EMAIL_SCOPE, userEmailClaimDecider, userEmailKey } from '../../../commands/tenancy/user-email.ts';
import {
  apiKeyStream,
  companyStream,
  organisationStream,
  sapiClientStream,
  type CompanyFields,
} from '../../../events/tenancy.ts';
import type { EventMetadata, Position } from '../../platform/eventstore/port.ts';
import { handleCommand } from '../../platform/handling/command-handler.ts';
import { claimUnique } from '../../platform/handling/unique-claim.ts';
import type { Core } from '../../platform/core.ts';
import { hashPassword, newApiKey, newSecret, sha256Hex } from '../identity/index.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'>;

/** Metadata of what the service does by itself (bootstrap, CLI), not on behalf of a request. */
export const systemMetadata = (component: string): EventMetadata => ({
  causationId: component,
  correlationId: component,
  actor: { type: 'system', id: component },
});

const now = (deps: Deps) => deps.clock.now().toISOString();

export async function createOrganisation(deps: Deps, name: string, plan: string, metadata: EventMetadata) {
  const id = deps.ids.next();
  const handled = await handleCommand(deps, organisationStream(id), organisationDecider, {
    type: 'CreateOrganisation', organisation_id: id, name, plan, at: now(deps),
  }, { metadata });
  return { organisation_id: id, position: handled.position };
}

/**
 * Moves the organisation to another plan (no public route yet: billing will call this). Limits
 * read the plan per request; a SAPI token carries the plan it was issued under, so for SAPI-SK
 * the change applies with the next token.
 */
export async function changeOrganisationPlan(deps: Deps, organisationId: string, plan: string, metadata: EventMetadata) {
  const handled = await handleCommand(deps, organisationStream(organisationId), organisationDecider, {
    type: 'ChangePlan', organisation_id: organisationId, plan, at: now(deps),
  }, { metadata, expected: { retry: { onVersionConflict: 5 } } });
  return { position: handled.position };
}

export async function createWorkspace(deps: Deps, organisationId: string, name: string, metadata: EventMetadata) {
  const id = deps.ids.next();
  const handled = await handleCommand(deps, organisationStream(organisationId), organisationDecider, {
    type: 'CreateWorkspace', organisation_id: organisationId, workspace_id: id, name, at: now(deps),
  }, { metadata });
  return { workspace_id: id, position: handled.position };
}

export async function addUser(
  deps: Deps,
  user: { organisationId: string; email: string; name: string; role: Role; password: string },
  metadata: EventMetadata,
) {
  const id = deps.ids.next();
  // the holder's organisation stream stands in for the user's existence: conservative, a claim
  // whose organisation exists is never taken over
  await claimUnique(deps, {
    decider: userEmailClaimDecider, scope: USER_EMAIL_SCOPE, value: userEmailKey(user.email), holderId: id, holderStream: () => organisationStream(user.organisationId),
  }, metadata);
  const handled = await handleCommand(deps, organisationStream(user.organisationId), organisationDecider, {
    type: 'AddUser', organisation_id: user.organisationId, user_id: id, email: user.email, name: user.name, role: user.role,
    password_hash: await hashPassword(user.password), at: now(deps),
  }, { metadata });
  return { user_id: id, position: handled.position };
}

export async function registerCompany(
  deps: Deps,
  company: { organisationId: string; workspaceId: string; fields: CompanyFields },
  metadata: EventMetadata,
) {
  const id = deps.ids.next();
  const handled = await handleCommand(deps, companyStream(id), companyDecider, {
    type: 'RegisterCompany', company_id: id, organisation_id: company.organisationId, workspace_id: company.workspaceId,
    fields: company.fields, at: now(deps),
  }, { metadata });
  return { company_id: id, position: handled.position };
}

/** Issues an organisation API key; the plaintext is returned here once and never stored. */
export async function issueApiKey(
  deps: Deps,
  key: { organisationId: string; name: string; scopes?: string[]; expiresInDays?: number | null; issuedBy: Actor | string },
  metadata: EventMetadata,
) {
  const id = deps.ids.next();
  const secret = newApiKey();
  const handled = await handleCommand(deps, apiKeyStream(id), apiKeyDecider, {
    type: 'IssueApiKey',
    data: {
      api_key_id: id, organisation_id: key.organisationId, name: key.name, key_prefix: secret.prefix, key_hash: secret.hash,
      scopes: key.scopes ?? DEFAULT_API_KEY_SCOPES, issued_at: now(deps),
      issued_by: typeof key.issuedBy === 'string' ? key.issuedBy : key.issuedBy.id,
    },
    expires_in_days: key.expiresInDays ?? null,
  }, { metadata });
  const issued = handled.events.find((e) => e.type === 'ApiKeyIssued');
  return { api_key_id: id, api_key: secret.plaintext, position: handled.position, issued: issued?.type === 'ApiKeyIssued' ? issued.data : undefined };
}

/** Issues SAPI-SK connector credentials for a company, locked to its participant ID. */
export async function issueSapiClient(
  deps: Deps,
  client: { organisationId: string; companyId: string; participantId: string },
  metadata: EventMetadata,
) {
  const clientId = `sapi_${deps.ids.next().replace(/-/g, '')}`;
  const secret = newSecret();
  const handled = await handleCommand(deps, sapiClientStream(clientId), sapiClientDecider, {
    type: 'IssueSapiClient',
    data: {
      client_id: clientId, organisation_id: client.organisationId, company_id: client.companyId,
      participant_id: client.participantId, secret_hash: sha256Hex(secret), issued_at: now(deps),
    },
  }, { metadata });
  return { client_id: clientId, client_secret: secret, participant_id: client.participantId, position: handled.position as Position };
}
