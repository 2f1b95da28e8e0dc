import type { CredentialCheckFailed, LoginFailed, LoginSucceeded, OAuthClientIssued, PasswordChanged, TotpDisabled, TotpEnabled, OAuthClientRevoked, RefreshFamilyRevoked, RefreshFamilyStarted, RefreshTokenRotated } from '../../events/identity.ts';
import { eventData, type Projector } from '../../src/readmodel/projector.ts';
import { announceRevocation } from '../../src/identity/revocation-notice.ts';
import { Identity1764000000100 } from './migration.ts';
import { IdentityRevokedAt1764000000300 } from './revoked-at-migration.ts';

/**
 * OAuth clients by id (what the token endpoint checks a secret against), and the security log an
 * admin reads: logins that failed or succeeded, sessions ended because a refresh token was reused,
 * password and two-factor changes and the wrong tries at them; and each user's open sessions, so a
 * password change can end them. A revoked client or ended session is announced to every instance
 * from the same transaction (their access tokens are refused from then on).
 */
export const identity: Projector = {
  name: 'identity',
  handles: [
    'OAuthClientIssued', 'OAuthClientRevoked', 'LoginFailed', 'LoginSucceeded', 'RefreshFamilyStarted', 'RefreshTokenRotated', 'RefreshFamilyRevoked',
    'CredentialCheckFailed', 'PasswordChanged', 'TotpEnabled', 'TotpDisabled',
  ],
  tables: ['oauth_clients', 'security_events', 'refresh_families'],
  migrations: [Identity1764000000100, IdentityRevokedAt1764000000300],

  async apply(events, tx) {
    for (const event of events) {
      const log = (organisationId: string | null, email: string | null, userId: string | null, ip: string | null, detail: string | null, at: string) =>
        tx.query(
          `INSERT INTO security_events (id, organisation_id, type, email, user_id, ip, detail, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (id) DO NOTHING`,
          [event.id, organisationId, event.type, email, userId, ip, detail, at],
        );
      // a user's own credential change, made signed in: the organisation is the actor's
      const ownChange = async (userId: string, at: string) => {
        const organisationId = event.metadata.actor?.organisationId;
        if (organisationId) await log(organisationId, null, userId, null, null, at);
      };
      if (event.type === 'OAuthClientIssued') {
        const d = eventData<OAuthClientIssued>(event);
        await tx.query(
          `INSERT INTO oauth_clients (client_id, organisation_id, name, scopes, secret_hash, is_active, created_at)
           VALUES ($1, $2, $3, $4, $5, true, $6) ON CONFLICT DO NOTHING`,
          [d.client_id, d.organisation_id, d.name, d.scopes, d.secret_hash, d.issued_at],
        );
      } else if (event.type === 'OAuthClientRevoked') {
        const d = eventData<OAuthClientRevoked>(event);
        await tx.query('UPDATE oauth_clients SET is_active = false, revoked_at = $2 WHERE client_id = $1', [d.client_id, d.revoked_at]);
        await announceRevocation(tx, { kind: 'oauth_client', id: d.client_id, revoked_at: d.revoked_at });
      } else if (event.type === 'LoginFailed') {
        const d = eventData<LoginFailed>(event);
        await log(d.organisation_id, d.email, d.user_id, d.ip, d.reason, d.at);
      } else if (event.type === 'LoginSucceeded') {
        const d = eventData<LoginSucceeded>(event);
        await log(d.organisation_id, d.email, d.user_id, d.ip, d.method, d.at);
      } else if (event.type === 'CredentialCheckFailed') {
        const d = eventData<CredentialCheckFailed>(event);
        await log(d.organisation_id, d.email, d.user_id, d.ip, `${d.action}:${d.reason}`, d.at);
      } else if (event.type === 'PasswordChanged') {
        const d = eventData<PasswordChanged>(event);
        await ownChange(d.user_id, d.changed_at);
      } else if (event.type === 'TotpEnabled') {
        const d = eventData<TotpEnabled>(event);
        await ownChange(d.user_id, d.enabled_at);
      } else if (event.type === 'TotpDisabled') {
        const d = eventData<TotpDisabled>(event);
        await ownChange(d.user_id, d.disabled_at);
      } else if (event.type === 'RefreshFamilyStarted') {
        const d = eventData<RefreshFamilyStarted>(event);
        await tx.query(
          `INSERT INTO refresh_families (family_id, user_id, organisation_id, is_active, started_at, expires_at)
           VALUES ($1, $2, $3, true, $4, $5) ON CONFLICT DO NOTHING`,
          [d.family_id, d.user_id, d.organisation_id, d.started_at, d.expires_at],
        );
      } else if (event.type === 'RefreshTokenRotated') {
        const d = eventData<RefreshTokenRotated>(event);
        await tx.query('UPDATE refresh_families SET expires_at = $2 WHERE family_id = $1', [d.family_id, d.expires_at]);
      } else if (event.type === 'RefreshFamilyRevoked') {
        const d = eventData<RefreshFamilyRevoked>(event);
        await tx.query('UPDATE refresh_families SET is_active = false, revoked_at = $2 WHERE family_id = $1', [d.family_id, d.revoked_at]);
        await announceRevocation(tx, { kind: 'session', id: d.family_id, revoked_at: d.revoked_at });
        // a logout is routine; a reuse is what an admin must see
        if (d.reason === 'reuse_detected') await log(d.organisation_id, null, d.user_id, null, d.reason, d.revoked_at);
      }
    }
  },
};
