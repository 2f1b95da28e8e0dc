import { Type } from '@sinclair/typebox';
import type { Actor } from '../../../../commands/shared/actor.ts';
import { DomainError } from '../../../../commands/shared/domain-error.ts';
import { getSapiClient, listSapiClients } from '../../../../projections/sapi-clients/queries.ts';
import type { SapiClientRow } from '../../../../projections/sapi-clients/rows.ts';
import { findCompany } from '../../../../projections/tenancy/queries.ts';
import { ErrorBody, PagingQuery, Uuid } from '../../../../schemas/common/index.ts';
import { SapiAllowlistUpdate, SapiClient, SapiClientList, SapiClientWithSecret } from '../../../../schemas/sapi/clients.ts';
import type { Core } from '../../../platform/core.ts';
import {
  installSapiClient, rotateSapiClientSecret, setSapiClientAllowlist, setSapiClientEnabled, type SapiAuthDeps,
} from './application.ts';
import { SAPI_PREFIX } from '../../../doors/sapi/route.ts';
import { idempotent } from '../../idempotency/index.ts';
import { listPage, pageRequest } from '../../../doors/native/list-page.ts';
import { API_PREFIX } from '../../../doors/native/prefix.ts';
import { defineRoute, type Route } from '../../../doors/native/route.ts';
import { LOCATION_HEADER } from '../../../platform/http/index.ts';

const CompanyParams = Type.Object({ company_id: Uuid });
const ClientParams = Type.Object({ sapi_client_id: Type.String({ minLength: 1, maxLength: 64, description: 'the SAPI-SK client_id (sapi_…)' }) });
const TAGS = ['sapi-sk connector'];
const PERMISSION = 'api_keys.manage';
const forbidden = { description: '`insufficient_role`: only an admin (or an API key, which acts as admin) manages credentials', schema: ErrorBody };
const clientNotFound = { description: '`sapi_client_not_found`: no such client in this organisation', schema: ErrorBody };

/**
 * Where clients reach the connector: the host they reached us on + /sapi (X-Forwarded-Proto and
 * -Host only when the service trusts its proxy).
 */
function baseUrl(headers: Record<string, string | undefined>, trustProxy: boolean): string {
  const forwarded = (name: string) => (trustProxy ? headers[name]?.split(',')[0]?.trim() : undefined);
  const proto = forwarded('x-forwarded-proto') === 'https' ? 'https' : 'http';
  const host = forwarded('x-forwarded-host') || headers.host || 'localhost';
  return `${proto}://${host}${SAPI_PREFIX}`;
}

/**
 * Installing and managing SAPI-SK credentials (/api/v1, admins): install for a company (the
 * secret once), list, rotate the secret, set the IP allowlist, disable and enable. Every answer
 * comes after the read model shows the change, so the gate of every instance applies it at once.
 */
export function sapiClientRoutes(deps: SapiAuthDeps & Core): Route[] {
  const { readModels, config } = deps;
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  const view = (row: SapiClientRow, base: string): SapiClient => ({
    client_id: row.client_id, company_id: row.company_id, participant_id: row.participant_id, base_url: base, enabled: row.enabled,
    allowlist: row.allowlist, locked_until: iso(row.locked_until), secret_rotated_at: iso(row.secret_rotated_at),
    created_at: new Date(row.created_at).toISOString(), updated_at: new Date(row.updated_at).toISOString(),
  });
  async function read(actor: Actor, clientId: string): Promise<SapiClientRow> {
    const row = await getSapiClient(readModels, actor.organisationId, clientId);
    if (!row) throw new DomainError('sapi_client_not_found', 'SAPI-SK client not found');
    return row;
  }
  const base = (headers: Record<string, string | undefined>) => baseUrl(headers, config.identity.trustProxy);

  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/companies/{company_id}/sapi-clients', operationId: 'installSapiClient', tags: TAGS, auth: 'api', permission: PERMISSION,
      summary: 'Install the SAPI-SK connector for a company (the client secret is in the answer, once)',
      description:
        'Issues client_id and client_secret, locked to the company\'s Peppol participant ID. Only the SHA-256 of the secret is stored: it cannot be shown again (rotate it to get a new one). A company may have several clients (one per installation). 409 `company_has_no_participant` when the company has no Peppol participant ID.',
      params: CompanyParams,
      responses: {
        201: { description: 'the credentials, with the secret this once', schema: SapiClientWithSecret, headers: [LOCATION_HEADER] },
        403: forbidden, 404: { description: '`company_not_found`', schema: ErrorBody }, 409: { description: '`company_has_no_participant`', schema: ErrorBody },
      },
      async handle({ params, actor, requestId, headers }) {
        const created = await installSapiClient(deps, { actor, requestId, companyId: params.company_id });
        const row = await read(actor, created.client_id);
        return {
          status: 201, body: { ...view(row, base(headers)), client_secret: created.client_secret },
          headers: { location: `${API_PREFIX}/sapi-clients/${row.client_id}`, 'cache-control': 'no-store' },
        };
      },
    }), { secretFields: ['client_secret'] }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/sapi-clients', operationId: 'listSapiClients', tags: TAGS, auth: 'api', permission: PERMISSION,
      summary: 'The company\'s SAPI-SK clients, without secrets',
      params: CompanyParams, query: PagingQuery,
      responses: { 200: { description: 'oldest first, disabled ones included', schema: SapiClientList }, 403: forbidden, 404: { description: '`company_not_found`', schema: ErrorBody } },
      async handle({ params, query, actor, headers }) {
        if (!(await findCompany(readModels, actor.organisationId, params.company_id))) throw new DomainError('company_not_found', 'company not found');
        const found = await listSapiClients(readModels, actor.organisationId, params.company_id, pageRequest(query));
        return { status: 200, body: listPage(found, query, (r) => view(r, base(headers))) };
      },
    }),
    defineRoute({
      method: 'GET', path: '/sapi-clients/{sapi_client_id}', operationId: 'getSapiClient', tags: TAGS, auth: 'api', permission: PERMISSION,
      summary: 'One SAPI-SK client, without its secret',
      params: ClientParams,
      responses: { 200: { description: 'the client', schema: SapiClient }, 403: forbidden, 404: clientNotFound },
      async handle({ params, actor, headers }) {
        return { status: 200, body: view(await read(actor, params.sapi_client_id), base(headers)) };
      },
    }),
    defineRoute({
      method: 'POST', path: '/sapi-clients/{sapi_client_id}/rotate-secret', operationId: 'rotateSapiClientSecret', tags: TAGS, auth: 'api', permission: PERMISSION,
      summary: 'A new client secret (in the answer, once); the old one stops working',
      description: 'Every token pair issued with the old secret ends too: its access tokens and refresh tokens get SAPI-AUTH-001 from this answer on.',
      params: ClientParams,
      responses: { 200: { description: 'the client, with its new secret this once', schema: SapiClientWithSecret }, 403: forbidden, 404: clientNotFound },
      async handle({ params, actor, requestId, headers }) {
        const { client_secret } = await rotateSapiClientSecret(deps, { actor, requestId, clientId: params.sapi_client_id });
        return { status: 200, body: { ...view(await read(actor, params.sapi_client_id), base(headers)), client_secret }, headers: { 'cache-control': 'no-store' } };
      },
    }),
    defineRoute({
      method: 'PUT', path: '/sapi-clients/{sapi_client_id}/allowlist', operationId: 'setSapiClientAllowlist', tags: TAGS, auth: 'api', permission: PERMISSION,
      summary: 'Set the addresses the client may call from (empty: any)',
      description:
        'Replaces the list. Entries are IPv4/IPv6 addresses or CIDRs, kept in canonical form (`10.1.2.3/8` is `10.0.0.0/8`, an address is /32 or /128); at most 50. Checked on POST /sapi/auth/token, /auth/renew and every /sapi request with a token: outside gives SAPI-AUTH-IP. The address is the peer\'s, or X-Forwarded-For\'s when the peer is a trusted proxy (TRUSTED_PROXIES, see docs/sapi.md).',
      params: ClientParams, body: SapiAllowlistUpdate,
      responses: { 200: { description: 'the client', schema: SapiClient }, 403: forbidden, 404: clientNotFound },
      async handle({ params, body, actor, requestId, headers }) {
        await setSapiClientAllowlist(deps, { actor, requestId, clientId: params.sapi_client_id, cidrs: body.cidrs });
        return { status: 200, body: view(await read(actor, params.sapi_client_id), base(headers)) };
      },
    }),
    ...(['disable', 'enable'] as const).map((action) => defineRoute({
      method: 'POST', path: `/sapi-clients/{sapi_client_id}/${action}`, operationId: `${action}SapiClient`, tags: TAGS, auth: 'api', permission: PERMISSION,
      summary: action === 'disable'
        ? 'Disable the connector for this client: its requests get SAPI-DISABLED (503) until enabled'
        : 'Enable a disabled client again (its unexpired tokens work again)',
      description: 'Idempotent: doing it twice answers the same.',
      params: ClientParams,
      responses: { 200: { description: 'the client', schema: SapiClient }, 403: forbidden, 404: clientNotFound },
      async handle({ params, actor, requestId, headers }) {
        await setSapiClientEnabled(deps, { actor, requestId, clientId: params.sapi_client_id, enabled: action === 'enable' });
        return { status: 200, body: view(await read(actor, params.sapi_client_id), base(headers)) };
      },
    })),
  ];
}
