import { Type } from '@sinclair/typebox';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { getApiKey, listApiKeys } from '../../../projections/api-keys/queries.ts';
import type { ApiKeyRecord } from '../../../projections/api-keys/rows.ts';
import { ApiKey, ApiKeyCreate, ApiKeyCreated, ApiKeyList, ApiKeyRevoked, ApiKeyUpdate } from '../../../schemas/api-keys.ts';
import { ErrorBody, PagingQuery, Uuid } from '../../../schemas/common/index.ts';
import { createApiKey, revokeApiKey, updateApiKey } from './api-keys.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import type { Core } from '../../platform/core.ts';
import type { Credentials } from './credentials.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { idempotent } from '../idempotency/index.ts';
import { listPage, pageRequest } from '../../doors/native/list-page.ts';
import { recoverApiKeyCreate } from './recovery.ts';
import { API_PREFIX } from '../../doors/native/prefix.ts';
import { LOCATION_HEADER } from '../../platform/http/index.ts';

const KeyParams = Type.Object({ key_id: Uuid });
const forbidden = { description: '`insufficient_role`: only an admin (or an API key, which acts as admin) manages keys', schema: ErrorBody };
const notFound = { description: '`api_key_not_found`: no such key in this organisation', schema: ErrorBody };

export function apiKeyRoutes(deps: Core & { auth: Credentials }): Route[] {
  const { readModels, projections, config, auth } = deps;

  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  function body(row: ApiKeyRecord): ApiKey {
    // a use not yet written is newer than the stored one
    const lastUsed = auth.lastUsed.unwritten(row.id) ?? row.last_used_at;
    return {
      id: row.id, name: row.name, key_prefix: row.key_prefix, scopes: row.scopes, is_active: row.is_active,
      last_used_at: iso(lastUsed), created_at: new Date(row.created_at).toISOString(), expires_at: iso(row.expires_at),
    };
  }

  async function readAfter(position: Position | null, actor: Actor, id: string): Promise<ApiKeyRecord> {
    if (position) await projections.caughtUp(position, config.readYourWritesTimeoutMs, ['api-keys']);
    const row = await getApiKey(readModels, actor.organisationId, id);
    if (!row) throw new DomainError('api_key_not_found', 'API key not found');
    return row;
  }

  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/api-keys', operationId: 'createApiKey', tags: ['api keys'], auth: 'api', permission: 'api_keys.manage',
      summary: 'Create an API key (the key is in the answer, once)',
      description: 'For admins (a signed-in admin, or an API key, which acts as admin). Only the SHA-256 of the key is stored: the `api_key` in this answer cannot be shown again.',
      body: ApiKeyCreate,
      responses: { 201: { description: 'the key record and, once, the key', schema: ApiKeyCreated, headers: [LOCATION_HEADER] }, 403: forbidden },
      async handle({ body: input, actor, requestId }) {
        const created = await createApiKey(deps, { actor, requestId, name: input.name, scopes: input.scopes, expiresInDays: input.expires_in_days });
        if (created.position) await projections.caughtUp(created.position, config.readYourWritesTimeoutMs, ['api-keys']);
        const row = await getApiKey(readModels, actor.organisationId, created.api_key_id);
        // the key exists once issued: a read model still behind (the wait is bounded) must not turn
        // the answer into a 404 and lose the only copy of the plaintext key (found by the fuzz campaign)
        const issued = created.issued;
        const record: ApiKey | undefined = row ? body(row) : issued && {
          id: issued.api_key_id, name: issued.name, key_prefix: issued.key_prefix, scopes: issued.scopes, is_active: true,
          last_used_at: null, created_at: new Date(issued.issued_at).toISOString(), expires_at: issued.expires_at === null ? null : new Date(issued.expires_at).toISOString(),
        };
        if (!record) throw new Error(`API key ${created.api_key_id} was issued but neither shown nor decided`);
        return { status: 201, body: { ...record, api_key: created.api_key }, headers: { location: `${API_PREFIX}/api-keys/${record.id}` } };
      },
    }), { secretFields: ['api_key'], recover: recoverApiKeyCreate(deps) }),
    defineRoute({
      method: 'GET', path: '/api-keys', operationId: 'listApiKeys', tags: ['api keys'], auth: 'api', permission: 'api_keys.manage',
      summary: 'The organisation\'s API keys, without secrets',
      query: PagingQuery,
      responses: { 200: { description: 'newest first, revoked ones included', schema: ApiKeyList }, 403: forbidden },
      async handle({ actor, query }) {
        return { status: 200, body: listPage(await listApiKeys(readModels, actor.organisationId, pageRequest(query)), query, body) };
      },
    }),
    defineRoute({
      method: 'PATCH', path: '/api-keys/{key_id}', operationId: 'updateApiKey', tags: ['api keys'], auth: 'api', permission: 'api_keys.manage',
      summary: 'Rename a key or change its recorded scopes',
      params: KeyParams, body: ApiKeyUpdate,
      responses: { 200: { description: 'the key record', schema: ApiKey }, 403: forbidden, 404: notFound, 409: { description: '`api_key_revoked`', schema: ErrorBody } },
      async handle({ params, body: input, actor, requestId }) {
        const position = await updateApiKey(deps, { actor, requestId, apiKeyId: params.key_id, name: input.name, scopes: input.scopes });
        return { status: 200, body: body(await readAfter(position, actor, params.key_id)) };
      },
    }),
    defineRoute({
      method: 'DELETE', path: '/api-keys/{key_id}', operationId: 'revokeApiKey', tags: ['api keys'], auth: 'api', permission: 'api_keys.manage',
      summary: 'Revoke a key: it stops working at once',
      description: 'Revoking a revoked key answers the same acknowledgement. This instance refuses the key from this answer on, the others as soon as the revocation notice reaches them (milliseconds).',
      params: KeyParams,
      responses: { 200: { description: 'acknowledgement', schema: ApiKeyRevoked }, 403: forbidden, 404: notFound },
      async handle({ params, actor, requestId }) {
        const position = await revokeApiKey(deps, { actor, requestId, apiKeyId: params.key_id });
        // forget only once the read model has it: a lookup in between would cache the key again
        if (position) await projections.caughtUp(position, config.readYourWritesTimeoutMs, ['api-keys']);
        auth.apiKeys.forget(params.key_id);
        return { status: 200, body: { id: params.key_id, message: 'API key revoked' } };
      },
    }),
  ];
}
