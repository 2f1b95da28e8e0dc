import type { DataSource } from 'typeorm';
import { pageOf, type PageOf, type PageRequest } from '../shared/page.ts';
import type { ActiveApiKey, ApiKeyRecord } from './rows.ts';

/** The active, unexpired key with this SHA-256 hash, or null. */
export async function findActiveApiKey(db: DataSource, keyHash: string, now: Date): Promise<ActiveApiKey | null> {
  const rows: ActiveApiKey[] = await db.query(
    `SELECT k.id, k.organisation_id, o.plan, k.expires_at FROM api_keys k JOIN organisations o ON o.id = k.organisation_id
     WHERE k.key_hash = $1 AND k.is_active AND (k.expires_at IS NULL OR k.expires_at > $2)`,
    [keyHash, now],
  );
  return rows[0] ?? null;
}

const RECORD = `SELECT k.id, k.name, k.key_prefix, k.scopes, k.is_active, u.last_used_at, k.created_at, k.expires_at
  FROM api_keys k LEFT JOIN credential_last_used u ON u.credential_id = k.id::text`;

/** The organisation's keys, newest first (revoked ones too: an audit wants to see them). */
export async function listApiKeys(db: DataSource, organisationId: string, page: PageRequest): Promise<PageOf<ApiKeyRecord>> {
  return pageOf(db, `${RECORD} WHERE k.organisation_id = $1`, [organisationId], 'q.created_at DESC, q.id', page);
}

/** One key of the organisation, or null (a key of another organisation is not found). */
export async function getApiKey(db: DataSource, organisationId: string, id: string): Promise<ApiKeyRecord | null> {
  const rows: ApiKeyRecord[] = await db.query(`${RECORD} WHERE k.organisation_id = $1 AND k.id = $2`, [organisationId, id]);
  return rows[0] ?? null;
}
