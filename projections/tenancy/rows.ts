import type { Role } from '../../commands/shared/actor.ts';
import type { CompanyFields } from '../../events/tenancy.ts';

/* The tenancy read model's rows, as its queries return them. */

export interface CompanyRow extends CompanyFields {
  id: string;
  organisation_id: string;
  workspace_id: string;
  /** '' when the company was registered without an address (the same for every part of its profile; country SK) */
  street: string;
  city: string;
  postal_code: string;
  additional_street: string;
  country_code: string;
  register_entry: string;
  contact_name: string;
  contact_email: string;
  contact_phone: string;
  bic: string;
}

export interface UserRow {
  id: string;
  organisation_id: string;
  email: string;
  name: string;
  role: Role;
  /** the hash the user was added with; a PasswordChanged in the user's credentials stream replaces it */
  password_hash: string;
}
