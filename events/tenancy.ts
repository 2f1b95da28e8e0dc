import type { DomainEvent } from './event.ts';

/** A user's role as UserAdded stores it (the roles the spec names). */
export type UserRole = 'admin' | 'approver' | 'accountant';

export type OrganisationCreated = DomainEvent<
  'OrganisationCreated',
  { organisation_id: string; name: string; plan: string; created_at: string }
>;
export type WorkspaceCreated = DomainEvent<
  'WorkspaceCreated',
  { organisation_id: string; workspace_id: string; name: string; created_at: string }
>;
export type UserAdded = DomainEvent<
  'UserAdded',
  {
    organisation_id: string;
    user_id: string;
    email: string;
    name: string;
    role: UserRole;
    /** scrypt hash with its parameters and salt; never the password */
    password_hash: string;
    added_at: string;
  }
>;
/** The organisation's plan from now on (rate limits, quotas); a SAPI token carries the plan it was issued under. */
export type OrganisationPlanChanged = DomainEvent<'OrganisationPlanChanged', { organisation_id: string; plan: string; previous_plan: string; changed_at: string }>;
export type OrganisationEvent = OrganisationCreated | WorkspaceCreated | UserAdded | OrganisationPlanChanged;

export interface CompanyFields {
  name: string;
  vat_id: string;
  ico: string;
  dic: string;
  peppol_id: string;
  iban: string;
  /**
   * The company's seat, which its invoices carry as the seller's address (BT-35, BT-37, BT-38).
   * Added as optional (version 1 stays): a company registered without them has none ('').
   */
  street?: string;
  city?: string;
  postal_code?: string;
  /** The rest of the company profile (issue 40), optional as the address is: none is '' (or SK for the country). */
  additional_street?: string;
  /** ISO 3166-1 alpha-2 of the seat; SK when left out */
  country_code?: string;
  /** the commercial register entry an invoice must print (§3a Obchodný zákonník), e.g. "zapísaná v Obchodnom registri …" */
  register_entry?: string;
  contact_name?: string;
  contact_email?: string;
  contact_phone?: string;
  /** the bank's BIC (ISO 9362) for the IBAN */
  bic?: string;
}

/** What PATCH /companies/{id} may change: the seat, the register entry, the contact and the bank account. */
export interface CompanyProfile {
  street: string;
  additional_street: string;
  city: string;
  postal_code: string;
  country_code: string;
  register_entry: string;
  contact_name: string;
  contact_email: string;
  contact_phone: string;
  iban: string;
  bic: string;
}
export type CompanyRegistered = DomainEvent<
  'CompanyRegistered',
  CompanyFields & { company_id: string; organisation_id: string; workspace_id: string; registered_at: string }
>;
/** The company's profile after an update, carried whole so the read model needs no history. */
export type CompanyProfileUpdated = DomainEvent<
  'CompanyProfileUpdated',
  CompanyProfile & { company_id: string; organisation_id: string; updated_at: string }
>;
export type CompanyEvent = CompanyRegistered | CompanyProfileUpdated;

export type ApiKeyIssued = DomainEvent<
  'ApiKeyIssued',
  {
    api_key_id: string;
    organisation_id: string;
    name: string;
    /** first characters of the key, shown so a person can tell keys apart */
    key_prefix: string;
    /** SHA-256 (hex) of the key: the plaintext is never stored */
    key_hash: string;
    scopes: string[];
    expires_at: string | null;
    issued_at: string;
    issued_by: string;
  }
>;
/** A new name or scopes (PATCH): both are carried whole, so the read model needs no history. */
export type ApiKeyUpdated = DomainEvent<'ApiKeyUpdated', { api_key_id: string; name: string; scopes: string[]; updated_at: string }>;
export type ApiKeyRevoked = DomainEvent<'ApiKeyRevoked', { api_key_id: string; revoked_at: string }>;
export type ApiKeyEvent = ApiKeyIssued | ApiKeyUpdated | ApiKeyRevoked;

/** SAPI-SK connector credentials: one company, locked to one participant ID. */
export type SapiClientIssued = DomainEvent<
  'SapiClientIssued',
  {
    client_id: string;
    organisation_id: string;
    company_id: string;
    participant_id: string;
    /** SHA-256 (hex) of the client secret */
    secret_hash: string;
    issued_at: string;
  }
>;
export type SapiClientEvent = SapiClientIssued;

export const organisationStream = (id: string) => `organisation-${id}`;
export const companyStream = (id: string) => `company-${id}`;
export const apiKeyStream = (id: string) => `api_key-${id}`;
export const sapiClientStream = (clientId: string) => `sapi_client-${clientId}`;
