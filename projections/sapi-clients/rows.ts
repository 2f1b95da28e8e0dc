/* The SAPI-SK credentials read model's rows, as its queries return them. Never a secret or a hash. */

export interface SapiClientRow {
  client_id: string;
  organisation_id: string;
  company_id: string;
  participant_id: string;
  enabled: boolean;
  allowlist: string[];
  secret_rotated_at: Date | null;
  locked_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What the gate needs of a token's client and family, in one row. */
export interface SapiGateRow {
  enabled: boolean;
  allowlist: string[];
  secret_rotated_at: Date | null;
  /** null when the family has no row (not revoked) */
  family_revoked_at: Date | null;
}
