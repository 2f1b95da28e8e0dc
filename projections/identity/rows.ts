/* The identity read model's rows, as its queries return them. */

export interface OAuthClientRow {
  client_id: string;
  organisation_id: string;
  name: string;
  scopes: string[];
  secret_hash: string;
  is_active: boolean;
  created_at: Date;
  revoked_at: Date | null;
}

export interface SecurityEventRow {
  id: string;
  type: string;
  email: string | null;
  user_id: string | null;
  ip: string | null;
  detail: string | null;
  /** a lock-out's addresses (null on other rows) */
  ips: string[] | null;
  locked_until: Date | null;
  sapi_client_id: string | null;
  company_id: string | null;
  at: Date;
}
