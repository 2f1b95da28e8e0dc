import type { DomainEvent } from './event.ts';

/** The fields of a directory customer, named as in the spec's create body. */
export interface CustomerFields {
  name: string;
  /** IČ DPH (or a foreign VAT ID); '' for a customer that is not VAT-registered */
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
  /** internal, never printed on invoices */
  note: string | null;
}

export type CustomerRegistered = DomainEvent<
  'CustomerRegistered',
  CustomerFields & { customer_id: string; organisation_id: string; company_id: string | null; registered_at: string }
>;
export type CustomerArchived = DomainEvent<'CustomerArchived', { customer_id: string; archived_at: string }>;
export type CustomerEvent = CustomerRegistered | CustomerArchived;


export const customerStream = (customerId: string) => `customer-${customerId}`;
