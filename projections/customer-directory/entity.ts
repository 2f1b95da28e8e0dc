import { EntitySchema } from 'typeorm';

/** A row of the customer directory read model. */
export interface CustomerRow {
  id: string;
  organisation_id: string;
  company_id: string | null;
  name: string;
  name_folded: string;
  vat_id: string;
  ico: string | null;
  dic: string | null;
  email: string | null;
  phone: string | null;
  street: string;
  city: string;
  postal_code: string;
  country_code: string;
  peppol_id: string | null;
  note: string | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
  version: number;
}

const text = { type: 'varchar' } as const;
const nullableText = { type: 'varchar', nullable: true } as const;

export const CustomerEntity = new EntitySchema<CustomerRow>({
  name: 'customer',
  tableName: 'customers',
  columns: {
    id: { type: 'uuid', primary: true },
    organisation_id: { type: 'uuid' },
    company_id: { type: 'uuid', nullable: true },
    name: text,
    name_folded: { type: 'text' },
    vat_id: text,
    ico: nullableText,
    dic: nullableText,
    email: nullableText,
    phone: nullableText,
    street: text,
    city: text,
    postal_code: text,
    country_code: text,
    peppol_id: nullableText,
    note: { type: 'text', nullable: true },
    is_active: { type: 'boolean' },
    created_at: { type: 'timestamptz' },
    updated_at: { type: 'timestamptz' },
    version: { type: 'integer' },
  },
});
