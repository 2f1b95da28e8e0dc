import type { ApiKeyIssued, ApiKeyRevoked, ApiKeyUpdated, SapiClientIssued } from '../../events/tenancy.ts';
import { announceRevocation } from '../shared/revocation-notice.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { ApiKeys1763800000600 } from './migration.ts';
import { ApiKeyUsage1764000000000 } from './usage-migration.ts';

/** Credentials by hash: what authentication looks a presented key or client secret up in. A revocation is announced to every instance. */
export const apiKeys = defineProjector<ApiKeyIssued | ApiKeyUpdated | ApiKeyRevoked | SapiClientIssued>({
  name: 'api-keys',
  handles: ['ApiKeyIssued', 'ApiKeyUpdated', 'ApiKeyRevoked', 'SapiClientIssued'],
  tables: ['api_keys', 'sapi_clients'],
  // credential_last_used is not in `tables`: a rebuild must not forget when keys were last used
  migrations: [ApiKeys1763800000600, ApiKeyUsage1764000000000],

  async apply(events, tx) {
    for (const event of events) {
      if (event.type === 'ApiKeyIssued') {
        const d = event.data;
        await tx.query(
          `INSERT INTO api_keys (id, organisation_id, name, key_prefix, key_hash, scopes, is_active, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, true, $7, $8) ON CONFLICT DO NOTHING`,
          [d.api_key_id, d.organisation_id, d.name, d.key_prefix, d.key_hash, d.scopes, d.issued_at, d.expires_at],
        );
      } else if (event.type === 'ApiKeyUpdated') {
        const d = event.data;
        await tx.query('UPDATE api_keys SET name = $2, scopes = $3 WHERE id = $1', [d.api_key_id, d.name, d.scopes]);
      } else if (event.type === 'ApiKeyRevoked') {
        const d = event.data;
        await tx.query('UPDATE api_keys SET is_active = false, revoked_at = $2 WHERE id = $1', [d.api_key_id, d.revoked_at]);
        // every instance forgets the key once this commits (their caches would trust it for 5 s)
        await announceRevocation(tx, { kind: 'api_key', id: d.api_key_id, revoked_at: d.revoked_at });
      } else if (event.type === 'SapiClientIssued') {
        const d = event.data;
        await tx.query(
          `INSERT INTO sapi_clients (client_id, organisation_id, company_id, participant_id, secret_hash, created_at)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
          [d.client_id, d.organisation_id, d.company_id, d.participant_id, d.secret_hash, d.issued_at],
        );
      }
    }
  },
});
