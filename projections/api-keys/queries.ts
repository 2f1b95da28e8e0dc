import type { DataSource } from 'typeorm';

export interface ActiveApiKey {
  id: string;
  organisation_id: string;
}

/** The active, unexpired key with this SHA-256 hash, or null. */
export async function findActiveApiKey(db: DataSource, keyHash: string, now: Date): Promise<ActiveApiKey | null> {
  const rows: ActiveApiKey[] = await db.query(
    `SELECT id, organisation_id FROM api_keys
     WHERE key_hash = $1 AND is_active AND (expires_at IS NULL OR expires_at > $2)`,
    [keyHash, now],
  );
  return rows[0] ?? null;
}
