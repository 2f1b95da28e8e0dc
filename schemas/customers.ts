import { Type, type Static } from '@sinclair/typebox';
import { MAX_Q_LENGTH, PageQuery, Uuid } from './common/index.ts';
import { CUSTOMER_SORT_COLUMNS } from '../projections/customer-directory/queries.ts';

const nullableString = (maxLength: number, extra: Record<string, unknown> = {}) =>
  Type.Union([Type.String({ maxLength, ...extra }), Type.Null()]);

/** Create body, with the spec's fields and limits. Identifier rules (checksums) are the domain's. */
export const CustomerCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'legal name' }),
    vat_id: Type.String({ maxLength: 20, description: 'IČ DPH (SK + 10 digits) or a foreign VAT ID; empty for a customer that is not VAT-registered' }),
    ico: Type.Optional(nullableString(10, { description: 'IČO, 8 digits with check digit' })),
    dic: Type.Optional(nullableString(20, { description: 'DIČ, 10 digits' })),
    email: Type.Optional(Type.Union([Type.String({ maxLength: 255, format: 'email' }), Type.Null()])),
    phone: Type.Optional(nullableString(50, { description: 'international format, e.g. +421 2 1234 5678' })),
    street: Type.Optional(Type.String({ maxLength: 255 })),
    city: Type.Optional(Type.String({ maxLength: 100 })),
    postal_code: Type.Optional(Type.String({ maxLength: 10, description: 'NNN NN or NNNNN in Slovakia' })),
    country_code: Type.Optional(Type.String({ maxLength: 2, pattern: '^[A-Za-z]{2}$', default: 'SK', description: 'ISO 3166-1 alpha-2' })),
    peppol_id: Type.Optional(nullableString(100, { description: '<scheme>:<identifier>; production 0245:<DIČ>, sandbox 9950:sk<VAT digits>svctest' })),
    note: Type.Optional(nullableString(2000, { description: 'internal, never printed on invoices' })),
  },
  { additionalProperties: false, $id: 'CustomerCreate' },
);
export type CustomerCreate = Static<typeof CustomerCreate>;

const timestamp = Type.String({ format: 'date-time' });

export const Customer = Type.Object(
  {
    id: Uuid,
    company_id: Type.Union([Uuid, Type.Null()], { description: 'null when created through the unscoped route: visible to every company of the organisation' }),
    name: Type.String(),
    vat_id: Type.String(),
    ico: Type.Union([Type.String(), Type.Null()]),
    dic: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    phone: Type.Union([Type.String(), Type.Null()]),
    street: Type.String(),
    city: Type.String(),
    postal_code: Type.String(),
    country_code: Type.String(),
    peppol_id: Type.Union([Type.String(), Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()]),
    is_active: Type.Boolean({ description: 'false once archived' }),
    created_at: timestamp,
    updated_at: timestamp,
    version: Type.Integer({ description: 'send back in If-Match' }),
  },
  { $id: 'Customer' },
);
export type Customer = Static<typeof Customer>;

export const CustomerListRow = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    vat_id: Type.String(),
    ico: Type.Union([Type.String(), Type.Null()]),
    city: Type.String(),
    country_code: Type.String(),
    peppol_id: Type.Union([Type.String(), Type.Null()]),
    is_active: Type.Boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  },
  { $id: 'CustomerListRow' },
);

export const CustomerMatch = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    vat_id: Type.String(),
    ico: Type.Union([Type.String(), Type.Null()]),
    city: Type.String(),
    peppol_id: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'CustomerMatch' },
);

const sortKey = `-?(?:${CUSTOMER_SORT_COLUMNS.join('|')})`;
export const CustomerListQuery = Type.Object({
  ...PageQuery.properties,
  q: Type.Optional(Type.String({ maxLength: MAX_Q_LENGTH, description: 'case- and accent-insensitive substring of name or VAT ID' })),
  sort: Type.Optional(
    Type.String({
      pattern: `^${sortKey}(?:,${sortKey})*$`,
      description: `comma-separated of ${CUSTOMER_SORT_COLUMNS.join(', ')}; prefix - for descending; default name`,
    }),
  ),
});

export const CustomerSearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: MAX_Q_LENGTH, description: 'VAT ID, IČO or name fragment' }),
});
