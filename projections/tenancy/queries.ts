import type { DataSource } from 'typeorm';
import type { CompanyRow, UserRow } from './rows.ts';

/** A company row's columns, its profile's included. */
const COMPANY_COLUMNS = `id, organisation_id, workspace_id, name, vat_id, ico, dic, peppol_id, iban, street, city, postal_code,
  additional_street, country_code, register_entry, contact_name, contact_email, contact_phone, bic`;

/** A company of the caller's organisation, or null (another organisation's company is not found). */
export async function findCompany(db: DataSource, organisationId: string, companyId: string): Promise<CompanyRow | null> {
  const rows: CompanyRow[] = await db.query(
    `SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = $1 AND organisation_id = $2`,
    [companyId, organisationId],
  );
  return rows[0] ?? null;
}

/** Every company of an organisation, oldest first. */
export async function listCompanies(db: DataSource, organisationId: string): Promise<CompanyRow[]> {
  return db.query(
    `SELECT ${COMPANY_COLUMNS} FROM companies WHERE organisation_id = $1 ORDER BY created_at, id`,
    [organisationId],
  );
}

/**
 * The company a Peppol participant id belongs to, in any organisation (the Peppol directory is
 * public: anyone may address any participant). Participant ids compare case-insensitively.
 */
export async function findCompanyByParticipant(db: DataSource, participantId: string): Promise<CompanyRow | null> {
  const rows: CompanyRow[] = await db.query(
    `SELECT ${COMPANY_COLUMNS} FROM companies WHERE lower(peppol_id) = lower($1) ORDER BY created_at LIMIT 1`,
    [participantId.trim()],
  );
  return rows[0] ?? null;
}

/** The organisation's plan now (its name as the plan table spells it), or null if it is unknown. */
export async function findOrganisationPlan(db: DataSource, organisationId: string): Promise<string | null> {
  const rows: { plan: string }[] = await db.query('SELECT plan FROM organisations WHERE id = $1', [organisationId]);
  return rows[0]?.plan ?? null;
}

/** Users with this e-mail (sign-in name; unique across organisations since users are claimed by e-mail). */
export async function findUserByEmail(db: DataSource, email: string): Promise<UserRow | null> {
  const rows: UserRow[] = await db.query('SELECT id, organisation_id, email, name, role, password_hash FROM users WHERE lower(email) = lower($1) ORDER BY created_at LIMIT 1', [email.trim()]);
  return rows[0] ?? null;
}

export async function findUser(db: DataSource, userId: string): Promise<UserRow | null> {
  const rows: UserRow[] = await db.query('SELECT id, organisation_id, email, name, role, password_hash FROM users WHERE id = $1', [userId]);
  return rows[0] ?? null;
}

/** Whether the organisation has a user who reviews (an admin or approver): an accountant's credit note then waits for approval (rule 7). */
export async function hasReviewer(db: DataSource, organisationId: string): Promise<boolean> {
  const rows: { found: boolean }[] = await db.query(`SELECT EXISTS (SELECT 1 FROM users WHERE organisation_id = $1 AND role IN ('admin', 'approver')) AS found`, [organisationId]);
  return rows[0]?.found === true;
}

/** Whether the workspace is the organisation's (another organisation's is not found). */
export async function workspaceExists(db: DataSource, organisationId: string, workspaceId: string): Promise<boolean> {
  const rows: unknown[] = await db.query('SELECT 1 FROM workspaces WHERE id = $1 AND organisation_id = $2', [workspaceId, organisationId]);
  return rows.length > 0;
}

/** The companies of a workspace of the organisation, oldest first (another organisation's workspace has none). */
export async function listWorkspaceCompanies(db: DataSource, organisationId: string, workspaceId: string): Promise<CompanyRow[]> {
  return db.query(
    `SELECT ${COMPANY_COLUMNS} FROM companies WHERE organisation_id = $1 AND workspace_id = $2 ORDER BY created_at, id`,
    [organisationId, workspaceId],
  );
}

/**
 * Companies of this service in any organisation, oldest first: what the sandbox company register
 * knows besides its fixtures (in the sandbox every company is made up, as Peppol addresses are
 * public there). `ico` or `dic` narrows to one identifier; `limit` bounds a name search's candidates.
 */
export async function registeredCompanies(db: DataSource, filter: { ico?: string; dic?: string; limit: number }): Promise<CompanyRow[]> {
  const [column, value] = filter.ico !== undefined ? ['ico', filter.ico] : filter.dic !== undefined ? ['dic', filter.dic] : [null, null];
  return db.query(
    `SELECT ${COMPANY_COLUMNS} FROM companies ${column ? `WHERE ${column} = $2` : ''} ORDER BY created_at, id LIMIT $1`,
    column ? [filter.limit, value] : [filter.limit],
  );
}
