import type { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookEndpoints1764400000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    // secrets only sealed (src/modules/webhooks/secret-box.ts): the delivery worker opens them to sign
    await q.query(`CREATE TABLE webhook_endpoints (
      id uuid PRIMARY KEY,
      organisation_id uuid NOT NULL,
      workspace_id uuid,
      url text NOT NULL,
      events text[] NOT NULL,
      description text,
      is_active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      deactivated_at timestamptz,
      secret_ciphertext text NOT NULL,
      previous_secret_ciphertext text,
      previous_valid_until timestamptz)`);
    await q.query('CREATE INDEX webhook_endpoints_organisation ON webhook_endpoints (organisation_id, created_at)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_endpoints');
  }
}

/**
 * Each endpoint's version (its If-Match for PATCH): 0 when registered, one more with every change
 * of it. Rows made before have changes this column cannot count, so the read model is emptied and
 * its checkpoint reset, as a rebuild does: the runner replays the organisations' webhooks streams
 * (a few events each) at start.
 */
export class WebhookEndpointVersion1766600000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_endpoints ADD COLUMN version integer NOT NULL DEFAULT 0');
    await q.query('TRUNCATE webhook_endpoints');
    await q.query(`DELETE FROM projection_failures WHERE name = 'webhook-endpoints'`);
    await q.query(`UPDATE projection_checkpoints SET position = '', updated_at = now() WHERE name = 'webhook-endpoints'`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_endpoints DROP COLUMN version');
  }
}
