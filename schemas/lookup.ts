import { Type, type Static } from '@sinclair/typebox';
import { MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT } from '../commands/lookup/search.ts';
import { MAX_QUERY_LENGTH, MIN_QUERY_LENGTH } from '../commands/lookup/text.ts';
import { Uuid } from './common/index.ts';

const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const Source = Type.Union([Type.Literal('rpo'), Type.Literal('registeruz'), Type.Literal('vies')]);

/** GET /lookup/companies/{ico} */
export const LookupIcoParams = Type.Object({
  ico: Type.String({ pattern: '^[0-9]{8}$', description: 'IČO: 8 digits with a valid mod-11 check digit (else 422 at path.ico)', examples: ['35757442'] }),
});

/** The spec's lookup result. Unknown values are null. */
export const CompanyLookupResult = Type.Object({
  ico: Type.String({ pattern: '^[0-9]{8}$' }),
  name: nullableString('the current registered name'),
  street: nullableString('street and number of the registered seat ("Hlavná 1234/12")'),
  city: nullableString('municipality of the seat'),
  postal_code: nullableString('`NNN NN` for a Slovak seat'),
  country_code: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 of the seat; `SK` unless the register names another country' }),
  dic: Type.Union([Type.String({ pattern: '^[0-9]{10}$' }), Type.Null()], { description: 'DIČ (10 digits), from RegisterUZ' }),
  ic_dph: Type.Union([Type.String({ pattern: '^SK[0-9]{10}$' }), Type.Null()], { description: 'IČ DPH = SK + DIČ, only when VIES confirms the VAT registration; else null' }),
  is_vat_registered: Type.Boolean({ description: 'VIES confirms SK + DIČ today; false when VIES says no, was not asked (no DIČ) or did not answer (then `sources` lacks `vies`)' }),
  legal_form_code: nullableString('legal form from the Statistical Office\'s code list (CL000056), e.g. 112 s.r.o., 121 a.s., 101 sole trader'),
  sources: Type.Array(Source, { description: 'the registers that answered about this company (rpo, registeruz, vies, in that order); a register that was down or too slow is missing' }),
}, { additionalProperties: false, $id: 'CompanyLookupResult' });
export type CompanyLookupResult = Static<typeof CompanyLookupResult>;

/** GET /lookup/companies?q= */
export const CompanySearchQuery = Type.Object({
  q: Type.String({
    maxLength: MAX_QUERY_LENGTH,
    description: `name (or a word of it) or an IČO; at least ${MIN_QUERY_LENGTH} letters or digits, at most ${MAX_QUERY_LENGTH} characters; diacritics and case are ignored ("kosice" finds "Košice")`,
  }),
  limit: Type.Integer({ minimum: 1, maximum: MAX_SEARCH_LIMIT, default: DEFAULT_SEARCH_LIMIT, description: `suggestions at most (1-${MAX_SEARCH_LIMIT})` }),
});

export const CompanySuggestion = Type.Object({
  ico: Type.String({ pattern: '^[0-9]{8}$' }),
  name: Type.String(),
  street: nullableString('street and number of the seat'),
  city: nullableString('municipality of the seat'),
  terminated: Type.Boolean({ default: false, description: 'struck off the register (listed after the companies still in business)' }),
}, { additionalProperties: false, $id: 'CompanySuggestion' });

export const CompanySearchResult = Type.Object({
  query: Type.String({ description: 'the search text as searched (trimmed, spaces collapsed)' }),
  results: Type.Array(CompanySuggestion),
}, { additionalProperties: false, $id: 'CompanySearchResult' });

/** GET /workspaces/{workspace_id}/companies: a `data` array, as the spec gives it (not the list envelope). */
export const WorkspaceCompanyList = Type.Object({
  data: Type.Array(Type.Object({
    id: Uuid,
    name: Type.String(),
    role: Type.Union([Type.Literal('admin'), Type.Literal('approver'), Type.Literal('accountant')], { description: 'the caller\'s role (an API key is admin)' }),
  }, { additionalProperties: false })),
}, { additionalProperties: false, $id: 'WorkspaceCompanyList' });
