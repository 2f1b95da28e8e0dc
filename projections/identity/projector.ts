import type {
  CredentialCheckFailed, LoginFailed, LoginSucceeded, OAuthClientIssued, PasswordChanged, TotpDisabled, TotpEnabled, OAuthClientRevoked, RefreshFamilyRevoked,
  RefreshFamilyStarted, RefreshTokenRotated, SignInLockedOut,
} from '../../events/identity.ts';
import type { SapiClientLockedOut } from '../../events/sapi-clients.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import type { EntityManager } from 'typeorm';
import type { Recorded } from '../../src/platform/eventstore/port.ts';
import type { RevocationNotice } from '../shared/revocation-notice.ts';
import { announceRevocations } from '../shared/revocations.ts';
import { foldByKey, insertPhases } from '../shared/phases.ts';
import { Identity1764000000100 } from './migration.ts';
import { IdentityRevokedAt1764000000300 } from './revoked-at-migration.ts';
import { IdentitySecurityLockouts1764000000400 } from './lockouts-migration.ts';

interface LogRow {
  id: string; organisation_id: string | null; type: string; email: string | null; user_id: string | null; ip: string | null; detail: string | null; at: string;
  /** lock-outs only */
  ips?: string[]; locked_until?: string; sapi_client_id?: string; company_id?: string;
}

type IdentityEvent =
  | OAuthClientIssued | OAuthClientRevoked | LoginFailed | LoginSucceeded | RefreshFamilyStarted | RefreshTokenRotated | RefreshFamilyRevoked
  | CredentialCheckFailed | PasswordChanged | TotpEnabled | TotpDisabled | SignInLockedOut | SapiClientLockedOut;

/** OAuth clients issued and revoked, in at most three statements (insertPhases); a client's last revocation is what its row keeps. */
async function writeClients(events: readonly Recorded<OAuthClientIssued | OAuthClientRevoked>[], tx: EntityManager): Promise<void> {
  const { early, inserts, late } = insertPhases(events, (e) => e.data.client_id, (e) => e.type === 'OAuthClientIssued');
  const revoke = async (phase: readonly Recorded<OAuthClientRevoked>[]) => {
    if (phase.length === 0) return;
    const rows = foldByKey<OAuthClientRevoked['data'], Recorded<OAuthClientRevoked>>(phase, (e) => e.data.client_id, (_, e) => e.data);
    await tx.query(
      `UPDATE oauth_clients c SET is_active = false, revoked_at = r.revoked_at
       FROM jsonb_to_recordset($1::jsonb) AS r(client_id text, revoked_at timestamptz) WHERE c.client_id = r.client_id AND c.client_id = ANY($2::text[])`,
      [JSON.stringify(rows), rows.map((r) => r.client_id)],
    );
  };
  await revoke(early);
  if (inserts.length > 0) {
    await tx.query(
      `INSERT INTO oauth_clients (client_id, organisation_id, name, scopes, secret_hash, is_active, created_at)
       SELECT r.client_id, r.organisation_id, r.name, ARRAY(SELECT jsonb_array_elements_text(r.scopes)), r.secret_hash, true, r.issued_at
       FROM jsonb_to_recordset($1::jsonb) AS r(client_id text, organisation_id uuid, name text, scopes jsonb, secret_hash text, issued_at timestamptz)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(inserts.map((e) => e.data))],
    );
  }
  await revoke(late);
}

/** What one phase does to a session: its last rotation's expiry, its last revocation. */
interface FamilyChange { family_id: string; rotated: boolean; expires_at: string | null; revoked: boolean; revoked_at: string | null }

/** Sessions started, rotated and revoked, in at most three statements (insertPhases). */
async function writeFamilies(events: readonly Recorded<RefreshFamilyStarted | RefreshTokenRotated | RefreshFamilyRevoked>[], tx: EntityManager): Promise<void> {
  const { early, inserts, late } = insertPhases(events, (e) => e.data.family_id, (e) => e.type === 'RefreshFamilyStarted');
  const change = async (phase: readonly Recorded<RefreshTokenRotated | RefreshFamilyRevoked>[]) => {
    if (phase.length === 0) return;
    const rows = foldByKey<FamilyChange, Recorded<RefreshTokenRotated | RefreshFamilyRevoked>>(phase, (e) => e.data.family_id, (seen, e) => {
      const row = seen ?? { family_id: e.data.family_id, rotated: false, expires_at: null, revoked: false, revoked_at: null };
      if (e.type === 'RefreshTokenRotated') return { ...row, rotated: true, expires_at: e.data.expires_at };
      return { ...row, revoked: true, revoked_at: e.data.revoked_at };
    });
    await tx.query(
      `UPDATE refresh_families f SET expires_at = CASE WHEN r.rotated THEN r.expires_at ELSE f.expires_at END,
         is_active = CASE WHEN r.revoked THEN false ELSE f.is_active END, revoked_at = CASE WHEN r.revoked THEN r.revoked_at ELSE f.revoked_at END
       FROM jsonb_to_recordset($1::jsonb) AS r(family_id text, rotated boolean, expires_at timestamptz, revoked boolean, revoked_at timestamptz)
       WHERE f.family_id = r.family_id AND f.family_id = ANY($2::text[])`,
      [JSON.stringify(rows), rows.map((r) => r.family_id)],
    );
  };
  await change(early);
  if (inserts.length > 0) {
    await tx.query(
      `INSERT INTO refresh_families (family_id, user_id, organisation_id, is_active, started_at, expires_at)
       SELECT r.family_id, r.user_id, r.organisation_id, true, r.started_at, r.expires_at
       FROM jsonb_to_recordset($1::jsonb) AS r(family_id text, user_id uuid, organisation_id uuid, started_at timestamptz, expires_at timestamptz)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(inserts.map((e) => e.data))],
    );
  }
  await change(late);
}

/**
 * OAuth clients by id (what the token endpoint checks a secret against), and the security log an
 * admin reads: logins that failed or succeeded, sessions ended because a refresh token was reused,
 * password and two-factor changes and the wrong tries at them, lock-outs (a user's sign-in, a
 * SAPI-SK client's) with the addresses that caused them; and each user's open sessions, so a
 * password change can end them. A revoked client or ended session is announced to every instance
 * from the same transaction (their access tokens are refused from then on).
 */
export const identity = defineProjector<IdentityEvent>({
  name: 'identity',
  handles: [
    'OAuthClientIssued', 'OAuthClientRevoked', 'LoginFailed', 'LoginSucceeded', 'RefreshFamilyStarted', 'RefreshTokenRotated', 'RefreshFamilyRevoked',
    'CredentialCheckFailed', 'PasswordChanged', 'TotpEnabled', 'TotpDisabled', 'SignInLockedOut', 'SapiClientLockedOut',
  ],
  tables: ['oauth_clients', 'security_events', 'refresh_families'],
  migrations: [Identity1764000000100, IdentityRevokedAt1764000000300, IdentitySecurityLockouts1764000000400],

  async apply(events, tx) {
    const log: LogRow[] = [];
    const notices: RevocationNotice[] = [];
    const clients: Recorded<OAuthClientIssued | OAuthClientRevoked>[] = [];
    const families: Recorded<RefreshFamilyStarted | RefreshTokenRotated | RefreshFamilyRevoked>[] = [];
    for (const event of events) {
      const entry = (organisation_id: string | null, email: string | null, user_id: string | null, ip: string | null, detail: string | null, at: string) =>
        log.push({ id: event.id, organisation_id, type: event.type, email, user_id, ip, detail, at });
      // a user's own credential change, made signed in: the organisation is the actor's
      const ownChange = (userId: string, at: string) => {
        const organisationId = event.metadata.actor?.organisationId;
        if (organisationId) entry(organisationId, null, userId, null, null, at);
      };
      if (event.type === 'OAuthClientIssued') {
        clients.push(event);
      } else if (event.type === 'OAuthClientRevoked') {
        const d = event.data;
        clients.push(event);
        notices.push({ kind: 'oauth_client', id: d.client_id, revoked_at: d.revoked_at });
      } else if (event.type === 'LoginFailed') {
        const d = event.data;
        entry(d.organisation_id, d.email, d.user_id, d.ip, d.reason, d.at);
      } else if (event.type === 'LoginSucceeded') {
        const d = event.data;
        entry(d.organisation_id, d.email, d.user_id, d.ip, d.method, d.at);
      } else if (event.type === 'CredentialCheckFailed') {
        const d = event.data;
        entry(d.organisation_id, d.email, d.user_id, d.ip, `${d.action}:${d.reason}`, d.at);
      } else if (event.type === 'SignInLockedOut') {
        // a lock-out names every address that caused it in `ips`; it has no one `ip`
        const d = event.data;
        log.push({
          id: event.id, organisation_id: d.organisation_id, type: event.type, email: d.email, user_id: d.user_id, ip: null, detail: d.scope,
          at: d.locked_at, ips: d.ips, locked_until: d.locked_until,
        });
      } else if (event.type === 'SapiClientLockedOut') {
        const d = event.data;
        log.push({
          id: event.id, organisation_id: d.organisation_id, type: event.type, email: null, user_id: null, ip: null, detail: null, at: d.locked_at,
          ips: d.ips, locked_until: d.locked_until, sapi_client_id: d.client_id, company_id: d.company_id,
        });
      } else if (event.type === 'PasswordChanged') {
        const d = event.data;
        ownChange(d.user_id, d.changed_at);
      } else if (event.type === 'TotpEnabled') {
        const d = event.data;
        ownChange(d.user_id, d.enabled_at);
      } else if (event.type === 'TotpDisabled') {
        const d = event.data;
        ownChange(d.user_id, d.disabled_at);
      } else if (event.type === 'RefreshFamilyStarted' || event.type === 'RefreshTokenRotated') {
        families.push(event);
      } else if (event.type === 'RefreshFamilyRevoked') {
        const d = event.data;
        families.push(event);
        notices.push({ kind: 'session', id: d.family_id, revoked_at: d.revoked_at });
        // a logout is routine; a reuse is what an admin must see
        if (d.reason === 'reuse_detected') entry(d.organisation_id, null, d.user_id, null, d.reason, d.revoked_at);
      }
    }
    await writeClients(clients, tx);
    await writeFamilies(families, tx);
    if (log.length > 0) {
      await tx.query(
        `INSERT INTO security_events (id, organisation_id, type, email, user_id, ip, detail, at, ips, locked_until, sapi_client_id, company_id)
         SELECT r.id, r.organisation_id, r.type, r.email, r.user_id, r.ip, r.detail, r.at, CASE WHEN r.ips IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(r.ips)) END,
           r.locked_until,
           r.sapi_client_id, r.company_id
         FROM jsonb_to_recordset($1::jsonb) AS r(
           id uuid, organisation_id uuid, type text, email text, user_id uuid, ip text, detail text, at timestamptz, ips jsonb, locked_until timestamptz,
           sapi_client_id text, company_id uuid)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(log)],
      );
    }
    // every instance forgets the credentials once this commits (their caches would trust them for 5 s)
    await announceRevocations(tx, notices);
  },
});
