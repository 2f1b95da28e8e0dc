import type { WebhookEndpointDeactivated, WebhookEndpointRegistered, WebhookEndpointUpdated, WebhookSecretRotated } from '../../events/webhooks.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { WebhookEndpoints1764400000000, WebhookEndpointVersion1766600000000 } from './migration.ts';
import { WEBHOOK_ENDPOINTS } from './queries.ts';

type Handled = WebhookEndpointRegistered | WebhookEndpointDeactivated | WebhookSecretRotated | WebhookEndpointUpdated;

/**
 * The organisation's webhook endpoints as the management routes list them and the delivery worker
 * reads its target from. `version` counts the endpoint's changes as the decider does (its If-Match).
 */
export const webhookEndpoints = defineProjector<Handled>({
  name: WEBHOOK_ENDPOINTS,
  handles: ['WebhookEndpointRegistered', 'WebhookEndpointDeactivated', 'WebhookSecretRotated', 'WebhookEndpointUpdated'],
  tables: ['webhook_endpoints'],
  migrations: [WebhookEndpoints1764400000000, WebhookEndpointVersion1766600000000],

  async apply(events, tx) {
    for (const event of events) {
      if (event.type === 'WebhookEndpointRegistered') {
        const d = event.data;
        await tx.query(
          `INSERT INTO webhook_endpoints (id, organisation_id, workspace_id, url, events, description, is_active, created_at, secret_ciphertext, version)
           VALUES ($1, $2, $3, $4, $5, $6, true, $7, $8, 0) ON CONFLICT DO NOTHING`,
          [d.endpoint_id, d.organisation_id, d.workspace_id, d.url, d.events, d.description, d.registered_at, d.secret_ciphertext],
        );
      } else if (event.type === 'WebhookEndpointDeactivated') {
        // a repeated DELETE decides nothing, so every one of these events is a change of the endpoint
        const d = event.data;
        await tx.query('UPDATE webhook_endpoints SET is_active = false, deactivated_at = $2, version = version + 1 WHERE id = $1', [d.endpoint_id, d.deactivated_at]);
      } else if (event.type === 'WebhookSecretRotated') {
        const d = event.data;
        await tx.query(
          `UPDATE webhook_endpoints SET previous_secret_ciphertext = secret_ciphertext, secret_ciphertext = $2, previous_valid_until = $3, version = version + 1
           WHERE id = $1 AND secret_ciphertext <> $2`,
          [d.endpoint_id, d.secret_ciphertext, d.previous_valid_until],
        );
      } else if (event.type === 'WebhookEndpointUpdated') {
        const d = event.data;
        await tx.query(
          `UPDATE webhook_endpoints SET url = $2, events = $3, description = $4, is_active = $5,
             deactivated_at = CASE WHEN $5 THEN NULL WHEN is_active THEN $6::timestamptz ELSE deactivated_at END, version = version + 1
           WHERE id = $1`,
          [d.endpoint_id, d.url, d.events, d.description, d.is_active, d.updated_at],
        );
      }
    }
  },
});
