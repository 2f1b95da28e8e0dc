import type { DataSource } from 'typeorm';
import { pageOf, type PageOf, type PageRequest } from '../shared/page.ts';

/** The read model's name, which read-your-writes waits for. */
export const WEBHOOK_ENDPOINTS = 'webhook-endpoints';

export interface WebhookEndpointRow {
  id: string;
  organisation_id: string;
  workspace_id: string | null;
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
  created_at: Date;
  deactivated_at: Date | null;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_valid_until: Date | null;
  /** the endpoint's changes counted: its If-Match version */
  version: number;
}

const COLUMNS = 'id, organisation_id, workspace_id, url, events, description, is_active, created_at, deactivated_at, secret_ciphertext, previous_secret_ciphertext, previous_valid_until, version';

/** The organisation's endpoints (a workspace's only, when given), oldest first, deactivated ones included. */
export async function listWebhookEndpoints(db: DataSource, organisationId: string, workspaceId: string | null, page: PageRequest): Promise<PageOf<WebhookEndpointRow>> {
  return workspaceId === null
    ? pageOf(db, `SELECT ${COLUMNS} FROM webhook_endpoints WHERE organisation_id = $1`, [organisationId], 'q.created_at, q.id', page)
    : pageOf(db, `SELECT ${COLUMNS} FROM webhook_endpoints WHERE organisation_id = $1 AND workspace_id = $2`, [organisationId, workspaceId], 'q.created_at, q.id', page);
}

export async function getWebhookEndpoint(db: DataSource, organisationId: string, endpointId: string): Promise<WebhookEndpointRow | null> {
  const rows: WebhookEndpointRow[] = await db.query(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND organisation_id = $2`, [endpointId, organisationId]);
  return rows[0] ?? null;
}

/** The delivery worker's view: endpoints by id, whatever their organisation. */
export async function webhookEndpointsById(db: DataSource, ids: readonly string[]): Promise<WebhookEndpointRow[]> {
  return db.query(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ANY($1::uuid[])`, [ids]);
}
