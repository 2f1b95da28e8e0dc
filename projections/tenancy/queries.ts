import type { DataSource } from 'typeorm';
import type { CompanyFields } from '../../events/tenancy.ts';

export interface CompanyRow extends CompanyFields {
  id: string;
  organisation_id: string;
  workspace_id: string;
}

/** A company of the caller's organisation, or null (another organisation's company is not found). */
export async function findCompany(db: DataSource, organisationId: string, companyId: string): Promise<CompanyRow | null> {
  const rows: CompanyRow[] = await db.query(
    'SELECT id, organisation_id, workspace_id, name, vat_id, ico, dic, peppol_id, iban FROM companies WHERE id = $1 AND organisation_id = $2',
    [companyId, organisationId],
  );
  return rows[0] ?? null;
}

export async function countOrganisations(db: DataSource): Promise<number> {
  const rows: { n: string }[] = await db.query('SELECT count(*) AS n FROM organisations');
  return Number(rows[0]?.n ?? 0);
}

/**
 * The company a Peppol participant id belongs to, in any organisation (the Peppol directory is
 * public: anyone may address any participant). Participant ids compare case-insensitively.
 */
export async function findCompanyByParticipant(db: DataSource, participantId: string): Promise<CompanyRow | null> {
  const rows: CompanyRow[] = await db.query(
    'SELECT id, organisation_id, workspace_id, name, vat_id, ico, dic, peppol_id, iban FROM companies WHERE lower(peppol_id) = lower($1) ORDER BY created_at LIMIT 1',
    [participantId.trim()],
  );
  return rows[0] ?? null;
}
