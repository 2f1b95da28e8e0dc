import type {
  SapiClientAllowlistSet, SapiClientDisabled, SapiClientEnabled, SapiClientLocked, SapiClientLockedOut, SapiClientSecretRotated,
  SapiTokenFamilyRevoked, SapiTokenFamilyStarted, SapiTokenRenewed,
} from '../../events/sapi-clients.ts';
import type { SapiClientIssued } from '../../events/tenancy.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { SapiClients1764500000000 } from './migration.ts';

/**
 * SAPI-SK credentials as the admin routes list them and as the gate checks them on every /sapi
 * request (enabled, allowlist, last rotation), and token families (revoked or not). Secrets and
 * refresh-token hashes stay on the write side.
 */
export const sapiClients = defineProjector<
  | SapiClientIssued | SapiClientSecretRotated | SapiClientAllowlistSet | SapiClientDisabled | SapiClientEnabled | SapiClientLocked | SapiClientLockedOut
  | SapiTokenFamilyStarted | SapiTokenRenewed | SapiTokenFamilyRevoked
>({
  name: 'sapi-clients',
  handles: [
    'SapiClientIssued', 'SapiClientSecretRotated', 'SapiClientAllowlistSet', 'SapiClientDisabled', 'SapiClientEnabled', 'SapiClientLocked', 'SapiClientLockedOut',
    'SapiTokenFamilyStarted', 'SapiTokenRenewed', 'SapiTokenFamilyRevoked',
  ],
  tables: ['sapi_credentials', 'sapi_token_families'],
  migrations: [SapiClients1764500000000],

  async apply(events, tx) {
    for (const event of events) {
      switch (event.type) {
        case 'SapiClientIssued': {
          const d = event.data;
          await tx.query(
            `INSERT INTO sapi_credentials (client_id, organisation_id, company_id, participant_id, enabled, allowlist, created_at, updated_at)
             VALUES ($1, $2, $3, $4, true, '{}', $5, $5) ON CONFLICT DO NOTHING`,
            [d.client_id, d.organisation_id, d.company_id, d.participant_id, d.issued_at],
          );
          break;
        }
        case 'SapiClientSecretRotated': {
          const d = event.data;
          await tx.query('UPDATE sapi_credentials SET secret_rotated_at = $2, updated_at = $2 WHERE client_id = $1', [d.client_id, d.rotated_at]);
          // a new secret ends every token family the old one opened
          await tx.query(
            `UPDATE sapi_token_families SET revoked_at = $2, revoke_reason = 'secret_rotated'
             WHERE client_id = $1 AND revoked_at IS NULL AND started_at < $2`,
            [d.client_id, d.rotated_at],
          );
          break;
        }
        case 'SapiClientAllowlistSet': {
          const d = event.data;
          await tx.query('UPDATE sapi_credentials SET allowlist = $2, updated_at = $3 WHERE client_id = $1', [d.client_id, d.cidrs, d.set_at]);
          break;
        }
        case 'SapiClientDisabled': {
          const d = event.data;
          await tx.query('UPDATE sapi_credentials SET enabled = false, updated_at = $2 WHERE client_id = $1', [d.client_id, d.disabled_at]);
          break;
        }
        case 'SapiClientEnabled': {
          const d = event.data;
          await tx.query('UPDATE sapi_credentials SET enabled = true, updated_at = $2 WHERE client_id = $1', [d.client_id, d.enabled_at]);
          break;
        }
        case 'SapiClientLocked':
        case 'SapiClientLockedOut': {
          const d = event.data;
          await tx.query('UPDATE sapi_credentials SET locked_until = $2 WHERE client_id = $1', [d.client_id, d.locked_until]);
          break;
        }
        case 'SapiTokenFamilyStarted': {
          const d = event.data;
          await tx.query('INSERT INTO sapi_token_families (family_id, client_id, started_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [d.family_id, d.client_id, d.started_at]);
          break;
        }
        case 'SapiTokenRenewed': {
          const d = event.data;
          await tx.query('UPDATE sapi_token_families SET renewed_at = $2 WHERE family_id = $1', [d.family_id, d.renewed_at]);
          break;
        }
        case 'SapiTokenFamilyRevoked': {
          const d = event.data;
          // a family may be revoked without ever having started here (an access token minted elsewhere)
          await tx.query(
            `INSERT INTO sapi_token_families (family_id, client_id, revoked_at, revoke_reason) VALUES ($1, $2, $3, $4)
             ON CONFLICT (family_id) DO UPDATE SET revoked_at = COALESCE(sapi_token_families.revoked_at, EXCLUDED.revoked_at),
               revoke_reason = COALESCE(sapi_token_families.revoke_reason, EXCLUDED.revoke_reason)`,
            [d.family_id, d.client_id, d.revoked_at, d.reason],
          );
          break;
        }
      }
    }
  },
});
