import { Type } from '@sinclair/typebox';
import { ErrorBody, Uuid } from '../../../schemas/common/index.ts';
import { Company, CompanyProfileUpdate } from '../../../schemas/tenancy.ts';
import type { Core } from '../../platform/core.ts';
import { ETAG_HEADER, ifMatchHeader } from '../../platform/http/index.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { readCompany, updateCompanyProfile, type CompanyNow } from './company-profile.ts';

const Params = Type.Object({ company_id: Uuid });
const notFound = { description: '`company_not_found`: no such company in the caller\'s organisation', schema: ErrorBody };

function companyBody({ state, version }: CompanyNow): Company {
  const { fields } = state;
  return {
    id: state.company_id, workspace_id: state.workspace_id, name: fields.name, vat_id: fields.vat_id, ico: fields.ico, dic: fields.dic, peppol_id: fields.peppol_id,
    ...state.profile, created_at: state.registered_at, updated_at: state.updated_at, version,
  };
}

const answer = (now: CompanyNow) => ({ status: 200, body: companyBody(now), headers: { etag: `"${now.version}"` } });

/** GET and PATCH /companies/{company_id}: the company's profile, which its invoices, their UBL and PDF carry. */
export function companyRoutes(deps: Pick<Core, 'store' | 'ids' | 'clock' | 'projections' | 'config'>): Route[] {
  return [
    defineRoute({
      method: 'GET', path: '/companies/{company_id}', operationId: 'getCompany', tags: ['workspaces'], auth: 'api', permission: 'workspaces.read',
      summary: 'The company: its identifiers and its profile (seat, register entry, contact, bank account)',
      description: 'Every role may read it. The ETag carries the version to send in If-Match to PATCH. Another organisation\'s company, or none, is 404 `company_not_found`.',
      params: Params,
      responses: { 200: { description: 'the company; ETag carries its version', schema: Company, headers: [ETAG_HEADER] }, 404: notFound },
      handle: async ({ params, actor }) => answer(await readCompany(deps, actor, params.company_id)),
    }),
    defineRoute({
      method: 'PATCH', path: '/companies/{company_id}', operationId: 'updateCompany', tags: ['workspaces'], auth: 'api', permission: 'settings.manage',
      summary: 'Change the company\'s profile: seat, register entry, contact, IBAN and BIC',
      description: [
        'For admins (a signed-in admin, or an API key). Only the fields sent change; \'\' clears one (not the IBAN).',
        'If-Match with the version is required (428 without it, 412 when stale). Invoices made from then on carry the new profile',
        '(the seller\'s address and register entry in their UBL and PDF, the BIC in their payment); invoices made before keep theirs.',
        'Refused values answer 422 with `loc` per field: a Slovak post code other than NNN NN or NNNNN, an e-mail or phone that cannot be one,',
        'an IBAN that is not a valid Slovak one, a BIC that is not ISO 9362 or whose country is not the IBAN\'s.',
      ].join(' '),
      params: Params, body: CompanyProfileUpdate,
      headerDocs: [ifMatchHeader('the company version read (its ETag): 428 without it, 412 when stale', true)],
      responses: {
        200: { description: 'the company as changed; ETag carries its version', schema: Company, headers: [ETAG_HEADER] },
        403: { description: '`insufficient_role`: only an admin (or an API key) changes the company', schema: ErrorBody },
        404: notFound,
        412: { description: '`version_mismatch`: If-Match is stale', schema: ErrorBody },
        428: { description: '`if_match_required`', schema: ErrorBody },
      },
      async handle({ params, body, actor, requestId, ifMatch }) {
        return answer(await updateCompanyProfile(deps, { actor, requestId, companyId: params.company_id, changes: body, expectedVersion: ifMatch }));
      },
    }),
  ];
}
