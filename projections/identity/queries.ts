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
  return pageOf(
    db, 'SELECT id, type, email, user_id, ip, detail, ips, locked_until, sapi_client_id, company_id, at FROM security_events WHERE organisation_id = $1',
    [organisationId], 'q.at DESC, q.id', page,
  );
}

/** Which failures count toward a sign-in budget: the account's (sign-in and credential changes) or a two-factor challenge's. */
const BUDGET_FAILURES = {
  account: `((type = 'LoginFailed' AND detail = 'wrong_password') OR type = 'CredentialCheckFailed')`,
  two_factor_challenge: `(type = 'LoginFailed' AND detail = 'invalid_totp_code')`,
} as const;

/**
 * What a sign-in lock-out is decided on (commands/identity/sign-in-lockout.ts): the user's failures
 * of that budget after `since` and before `before` (the failure deciding is not among them), and
 * when the user's last lock-out of that scope was recorded.
 */
export async function signInLockoutFacts(
  db: DataSource, args: { organisationId: string; userId: string; scope: keyof typeof BUDGET_FAILURES; since: string; before: string },
): Promise<{ earlier: { ip: string; at: string }[]; last_locked_at: string | null }> {
  const failures: { ip: string; at: Date }[] = await db.query(
    `SELECT ip, at FROM security_events WHERE organisation_id = $1 AND user_id = $2 AND at > $3 AND at < $4 AND ip IS NOT NULL AND ${BUDGET_FAILURES[args.scope]}`,
    [args.organisationId, args.userId, args.since, args.before],
  );
  const [last]: { at: Date | null }[] = await db.query(
    `SELECT max(at) AS at FROM security_events WHERE organisation_id = $1 AND user_id = $2 AND type = 'SignInLockedOut' AND detail = $3`,
    [args.organisationId, args.userId, args.scope],
  );
  return { earlier: failures.map((f) => ({ ip: f.ip, at: new Date(f.at).toISOString() })), last_locked_at: last?.at ? new Date(last.at).toISOString() : null };
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
