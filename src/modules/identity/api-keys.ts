import type { Actor } from '../../../commands/shared/actor.ts';
import { apiKeyDecider } from '../../../commands/tenancy/api-key.ts';
import { apiKeyStream } from '../../../events/tenancy.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import { handleCommand } from '../../platform/handling/command-handler.ts';
import type { Core } from '../../platform/core.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';
import { issueApiKey } from '../tenancy/index.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'>;
type Request = { actor: Actor; requestId: string };

export async function createApiKey(deps: Deps, request: Request & { name: string; scopes?: string[]; expiresInDays?: number | null }) {
  const { actor } = request;
  return issueApiKey(deps, {
    organisationId: actor.organisationId, name: request.name, scopes: request.scopes, expiresInDays: request.expiresInDays ?? null, issuedBy: actor,
  }, requestMetadata(actor, request.requestId));
}

export async function updateApiKey(deps: Deps, request: Request & { apiKeyId: string; name?: string; scopes?: string[] }): Promise<Position | null> {
  const { actor } = request;
  const handled = await handleCommand(deps, apiKeyStream(request.apiKeyId), apiKeyDecider, {
    type: 'UpdateApiKey', api_key_id: request.apiKeyId, organisation_id: actor.organisationId, name: request.name, scopes: request.scopes,
    at: deps.clock.now().toISOString(),
  }, { metadata: requestMetadata(actor, request.requestId) });
  return handled.position;
}

export async function revokeApiKey(deps: Deps, request: Request & { apiKeyId: string }): Promise<Position | null> {
  const { actor } = request;
  const handled = await handleCommand(deps, apiKeyStream(request.apiKeyId), apiKeyDecider, {
    type: 'RevokeApiKey', api_key_id: request.apiKeyId, organisation_id: actor.organisationId, at: deps.clock.now().toISOString(),
  }, { metadata: requestMetadata(actor, request.requestId) });
  return handled.position;
}
