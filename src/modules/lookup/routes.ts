import { ErrorBody, ValidationErrorBody } from '../../../schemas/common/index.ts';
import { CompanyLookupResult, CompanySearchQuery, CompanySearchResult, LookupIcoParams } from '../../../schemas/lookup.ts';
import type { CompanyLookupService } from './registers/company-lookup.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';

const WHO = [
  'Any authenticated caller of the organisation may look up (an API key, a signed-in user of any role, an OAuth client): the registers are public.',
  'Each request costs one token of the caller\'s rate-limit bucket like any other route; answers are cached, so a repeat costs the registers nothing.',
].join(' ');

const unavailable = {
  description: '`company_registry_unavailable` ({detail: {error, message, unavailable: [sources]}}): every register that could answer was down or too slow; safe to retry',
  schema: ErrorBody,
};

/** GET /lookup/companies/{ico} and GET /lookup/companies?q= (docs/lookup.md). */
export function lookupRoutes(deps: { lookup: CompanyLookupService }): Route[] {
  return [
    defineRoute({
      method: 'GET', path: '/lookup/companies/{ico}', operationId: 'lookupCompany', tags: ['lookup'], auth: 'api', permission: 'companies.lookup',
      summary: 'A Slovak company by its IČO, from the registers (RPO, RegisterUZ, VIES)',
      description: [
        'Fills a buyer from its IČO. RPO (the Statistical Office\'s register) gives the current name, seat and legal form; RegisterUZ (financial statements)',
        'the DIČ; VIES then checks SK + DIČ and sets is_vat_registered and ic_dph. Unknown values are null. When one register is down or too slow, the',
        'answer comes without its part and `sources` lacks it (a missing `vies` means the VAT status is unknown, not "no"). In the sandbox the registers',
        `are fixtures and this service's own companies. ${WHO}`,
      ].join(' '),
      params: LookupIcoParams,
      responses: {
        200: { description: 'the company', schema: CompanyLookupResult },
        404: { description: '`company_not_found`: RPO (and RegisterUZ) do not know this IČO', schema: ErrorBody },
        422: { description: 'not 8 digits, or the check digit does not match (`{detail: [{loc: ["path", "ico"], msg, type: "value_error.ico", input}]}`)', schema: ValidationErrorBody },
        502: unavailable,
      },
      async handle({ params }) {
        return { status: 200, body: await deps.lookup.byIco(params.ico) };
      },
    }),
    defineRoute({
      method: 'GET', path: '/lookup/companies', operationId: 'searchCompanies', tags: ['lookup'], auth: 'api', permission: 'companies.lookup',
      summary: 'Suggestions of Slovak companies by name (or IČO), from RPO',
      description: [
        'Every word of q must occur in the company\'s current name, diacritics and case aside ("kosice" finds "Stavebniny Košice a.s."). A q that is a valid',
        'IČO (spaces allowed) finds that company. Companies still in business come first, terminated ones (`terminated: true`) after them.',
        `Use GET /lookup/companies/{ico} on a suggestion for the DIČ and VAT status. ${WHO}`,
      ].join(' '),
      query: CompanySearchQuery,
      responses: {
        200: { description: 'the suggestions (an empty list when nothing matches)', schema: CompanySearchResult },
        422: { description: 'q missing, with fewer than 3 letters or digits, or over 200 characters; limit outside 1-50', schema: ValidationErrorBody },
        502: unavailable,
      },
      async handle({ query }) {
        return { status: 200, body: await deps.lookup.search(query.q, query.limit) };
      },
    }),
  ];
}
