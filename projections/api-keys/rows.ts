/* The API-key read model's rows, as its queries return them. */

export interface ActiveApiKey {
  id: string;
  organisation_id: string;
  /** the organisation's plan now: it sizes the key's rate limit and gates features */
  plan: string;
  expires_at: Date | null;
}

/** An API key as the API shows it: never the hash, only the prefix. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  key_prefix: string;
  scopes: string[];
  is_active: boolean;
  last_used_at: Date | null;
  created_at: Date;
  expires_at: Date | null;
}
