import type { DataSource } from 'typeorm';
import { pageOf, type PageOf, type PageRequest } from '../shared/page.ts';
import type { OAuthClientRow, SecurityEventRow } from './rows.ts';

export async function findOAuthClient(db: DataSource, clientId: string): Promise<OAuthClientRow | null> {
  const rows: OAuthClientRow[] = await db.query('SELECT * FROM oauth_clients WHERE client_id = $1', [clientId]);
  return rows[0] ?? null;
}

export async function listOAuthClients(db: DataSource, organisationId: string, page: PageRequest): Promise<PageOf<OAuthClientRow>> {
  return pageOf(db, 'SELECT * FROM oauth_clients WHERE organisation_id = $1', [organisationId], 'q.created_at DESC, q.client_id', page);
}

/** The organisation's security log, newest first, a page at a time. */
export async function listSecurityEvents(db: DataSource, organisationId: string, page: PageRequest): Promise<PageOf<SecurityEventRow>> {
  return pageOf(db, 'SELECT id, type, email, user_id, ip, detail, at FROM security_events WHERE organisation_id = $1', [organisationId], 'q.at DESC, q.id', page);
}

/** The user's sessions that may still refresh. */
export async function activeSessions(db: DataSource, userId: string): Promise<string[]> {
  const rows: { family_id: string }[] = await db.query('SELECT family_id FROM refresh_families WHERE user_id = $1 AND is_active AND expires_at > now()', [userId]);
  return rows.map((r) => r.family_id);
}

/** Sessions and OAuth clients revoked since `since`: what an instance must refuse tokens of when it starts listening. */
export async function recentRevocations(db: DataSource, since: Date): Promise<{ kind: 'session' | 'oauth_client'; id: string; revoked_at: Date }[]> {
  return db.query(
    `SELECT 'session' AS kind, family_id AS id, revoked_at FROM refresh_families WHERE revoked_at > $1
     UNION ALL SELECT 'oauth_client', client_id, revoked_at FROM oauth_clients WHERE revoked_at > $1`,
    [since],
  );
}
