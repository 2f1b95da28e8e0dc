import { EntitySchema } from 'typeorm';
import type { CustomerFields } from '../../events/customers.ts';

/** A row of the customer directory read model: the customer's fields and their bookkeeping. */
export interface CustomerRow extends CustomerFields {
  id: string;
  organisation_id: string;
  company_id: string | null;
  /** name without case and diacritics, for search and sorting */
  name_folded: string;
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
