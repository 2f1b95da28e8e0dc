import type { DataSource } from 'typeorm';
import { pageOf, type PageOf, type PageRequest } from '../shared/page.ts';
import type { SapiClientRow, SapiGateRow } from './rows.ts';

const COLUMNS = 'client_id, organisation_id, company_id, participant_id, enabled, allowlist, secret_rotated_at, locked_until, created_at, updated_at';

/** A company's SAPI-SK clients, oldest first. */
export async function listSapiClients(db: DataSource, organisationId: string, companyId: string, page: PageRequest): Promise<PageOf<SapiClientRow>> {
  return pageOf(db, `SELECT ${COLUMNS} FROM sapi_credentials WHERE organisation_id = $1 AND company_id = $2`, [organisationId, companyId], 'q.created_at, q.client_id', page);
}

/** One client of the organisation, or null (another organisation's is not found). */
export async function getSapiClient(db: DataSource, organisationId: string, clientId: string): Promise<SapiClientRow | null> {
  const rows: SapiClientRow[] = await db.query(`SELECT ${COLUMNS} FROM sapi_credentials WHERE client_id = $1 AND organisation_id = $2`, [clientId, organisationId]);
  return rows[0] ?? null;
}

/**
 * The gate's one query per /sapi request: two primary-key lookups in one statement (the client,
 * and its token family if that has a row). Null when the client is unknown.
 */
export async function findSapiGate(db: DataSource, clientId: string, familyId: string): Promise<SapiGateRow | null> {
  const rows: SapiGateRow[] = await db.query(
    `SELECT c.enabled, c.allowlist, c.secret_rotated_at, f.revoked_at AS family_revoked_at
     FROM sapi_credentials c LEFT JOIN sapi_token_families f ON f.family_id = $2 AND f.client_id = c.client_id
     WHERE c.client_id = $1`,
    [clientId, familyId],
  );
  return rows[0] ?? null;
}
