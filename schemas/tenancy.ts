import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from './common/index.ts';

/* A company's profile over HTTP (GET and PATCH /companies/{company_id}): docs/companies.md. */

const text = (maxLength: number, description: string) => Type.String({ maxLength, description });

/** The profile's fields, each as PATCH takes it (omit to keep, '' to clear) and GET shows it. */
const profileFields = {
  street: text(255, 'street and number of the seat ("Hlavná 1234/12"): the seller\'s address on its invoices (BT-35)'),
  additional_street: text(255, 'a second address line (BT-36), e.g. a building or floor'),
  city: text(100, 'municipality of the seat (BT-37)'),
  postal_code: text(10, 'post code (BT-38); a Slovak one is `NNN NN` or `NNNNN`'),
  country_code: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 of the seat; SK unless given' }),
  register_entry: text(255, 'the commercial register entry every invoice of a registered company prints (§3a Obchodný zákonník), as the register words it; carried in the UBL as PartyLegalEntity/CompanyLegalForm (BT-33)'),
  contact_name: text(255, 'whom a buyer asks about an invoice (BT-41)'),
  contact_email: text(255, 'e-mail of the contact (BT-43)'),
  contact_phone: text(50, 'phone of the contact in international format, such as +421 2 1234 5678 (BT-42)'),
  iban: text(34, 'the account invoices are paid to by default (SK + 22 digits, valid check digits); never empty'),
  bic: text(11, 'the BIC (ISO 9362) of the IBAN\'s bank (BT-86), 8 or 11 characters; its country must be the IBAN\'s'),
};

export const CompanyProfileUpdate = Type.Partial(
  Type.Object(profileFields),
  {
    additionalProperties: false,
    $id: 'CompanyProfileUpdate',
    description: 'Only the fields sent change; the same values again change nothing (the version stays). Values are trimmed.',
    examples: [{ street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01', register_entry: 'zapísaná v Obchodnom registri Okresného súdu Bratislava I, oddiel Sro, vložka č. 12345/B', bic: 'TATRSKBX' }],
  },
);
export type CompanyProfileUpdate = Static<typeof CompanyProfileUpdate>;

export const Company = Type.Object(
  {
    id: Uuid,
    workspace_id: Uuid,
    name: Type.String({ description: 'legal name, as registered' }),
    vat_id: Type.String({ description: 'IČ DPH' }),
    ico: Type.String({ description: 'IČO' }),
    dic: Type.String({ description: 'DIČ' }),
    peppol_id: Type.String({ description: 'the Peppol participant invoices are delivered from and to' }),
    ...profileFields,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time', description: 'when the profile last changed (the registration, before any change)' }),
    version: Type.Integer({ minimum: 0, description: 'the company\'s version; send it in If-Match to PATCH (the ETag carries it too)' }),
  },
  { additionalProperties: false, $id: 'Company' },
);
export type Company = Static<typeof Company>;
