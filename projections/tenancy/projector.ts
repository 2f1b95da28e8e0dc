import type { EntityManager } from 'typeorm';
import type { CompanyProfileUpdated, CompanyRegistered, OrganisationCreated, OrganisationPlanChanged, UserAdded, WorkspaceCreated } from '../../events/tenancy.ts';
import { profileOf } from '../../commands/tenancy/company-profile.ts';
import type { CompanyProfile } from '../../events/tenancy.ts';
import type { Recorded } from '../../src/platform/eventstore/port.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { foldByKey, insertPhases } from '../shared/phases.ts';
import { CompanyAddress1766400000000 } from './address-migration.ts';
import { Tenancy1763800000500 } from './migration.ts';
import { CompanyProfile1767040000000 } from './profile-migration.ts';

type TenancyEvent = OrganisationCreated | WorkspaceCreated | UserAdded | CompanyRegistered | CompanyProfileUpdated | OrganisationPlanChanged;

/** The profile's columns, named as its fields. */
const PROFILE_COLUMNS: (keyof CompanyProfile)[] = [
  'street', 'additional_street', 'city', 'postal_code', 'country_code', 'register_entry', 'contact_name', 'contact_email', 'contact_phone', 'iban', 'bic',
];
const PROFILE_RECORD = PROFILE_COLUMNS.map((c) => `${c} text`).join(', ');

/** Rows of a batch as jsonb_to_recordset reads them. */
const json = (rows: readonly object[]) => JSON.stringify(rows);

/** Plan changes of one phase (insertPhases), one statement: each organisation's last one is what its row keeps. */
async function changePlans(events: readonly Recorded<OrganisationPlanChanged>[], tx: EntityManager): Promise<void> {
  if (events.length === 0) return;
  const rows = foldByKey<OrganisationPlanChanged['data'], Recorded<OrganisationPlanChanged>>(events, (e) => e.data.organisation_id, (_, e) => e.data);
  await tx.query(
    `UPDATE organisations o SET plan = r.plan FROM jsonb_to_recordset($1::jsonb) AS r(organisation_id uuid, plan text)
     WHERE o.id = r.organisation_id AND o.id = ANY($2::uuid[])`,
    [json(rows), rows.map((r) => r.organisation_id)],
  );
}

/** Profile changes of one phase (insertPhases), one statement: each company's last one is what its row keeps. */
async function changeProfiles(events: readonly Recorded<CompanyProfileUpdated>[], tx: EntityManager): Promise<void> {
  if (events.length === 0) return;
  const rows = foldByKey<CompanyProfileUpdated['data'], Recorded<CompanyProfileUpdated>>(events, (e) => e.data.company_id, (_, e) => e.data);
  await tx.query(
    `UPDATE companies c SET ${PROFILE_COLUMNS.map((col) => `${col} = r.${col}`).join(', ')}
     FROM jsonb_to_recordset($1::jsonb) AS r(company_id uuid, ${PROFILE_RECORD}) WHERE c.id = r.company_id AND c.id = ANY($2::uuid[])`,
    [json(rows), rows.map((r) => r.company_id)],
  );
}

/**
 * Organisations, workspaces, users and companies. A batch is a few set-based statements whatever
 * its size (insertPhases per table: changes before a row's insert in the batch, the inserts, the
 * changes after), not one per event: rows of different tables and keys are independent, and each
 * key keeps its own order.
 */
export const tenancy = defineProjector<TenancyEvent>({
  name: 'tenancy',
  handles: ['OrganisationCreated', 'WorkspaceCreated', 'UserAdded', 'CompanyRegistered', 'CompanyProfileUpdated', 'OrganisationPlanChanged'],
  tables: ['organisations', 'workspaces', 'users', 'companies'],
  migrations: [Tenancy1763800000500, CompanyAddress1766400000000, CompanyProfile1767040000000],

  async apply(events, tx) {
    const organisations: Recorded<OrganisationCreated | OrganisationPlanChanged>[] = [];
    const companies: Recorded<CompanyRegistered | CompanyProfileUpdated>[] = [];
    const workspaces: WorkspaceCreated['data'][] = [];
    const users: UserAdded['data'][] = [];
    for (const event of events) {
      if (event.type === 'OrganisationCreated' || event.type === 'OrganisationPlanChanged') organisations.push(event);
      else if (event.type === 'CompanyRegistered' || event.type === 'CompanyProfileUpdated') companies.push(event);
      else if (event.type === 'WorkspaceCreated') workspaces.push(event.data);
      else users.push(event.data);
    }

    const orgs = insertPhases(organisations, (e) => e.data.organisation_id, (e) => e.type === 'OrganisationCreated');
    await changePlans(orgs.early, tx);
    if (orgs.inserts.length > 0) {
      await tx.query(
        `INSERT INTO organisations (id, name, plan, created_at)
         SELECT r.organisation_id, r.name, r.plan, r.created_at FROM jsonb_to_recordset($1::jsonb) AS r(organisation_id uuid, name text, plan text, created_at timestamptz)
         ON CONFLICT DO NOTHING`,
        [json(orgs.inserts.map((e) => e.data))],
      );
    }
    await changePlans(orgs.late, tx);

    if (workspaces.length > 0) {
      await tx.query(
        `INSERT INTO workspaces (id, organisation_id, name, created_at)
         SELECT r.workspace_id, r.organisation_id, r.name, r.created_at FROM jsonb_to_recordset($1::jsonb) AS r(workspace_id uuid, organisation_id uuid, name text, created_at timestamptz)
         ON CONFLICT DO NOTHING`,
        [json(workspaces)],
      );
    }
    // in event order (the function scan's): of two users with one e-mail in an organisation, the first is kept, as one at a time
    if (users.length > 0) {
      await tx.query(
        `INSERT INTO users (id, organisation_id, email, name, role, password_hash, created_at)
         SELECT r.user_id, r.organisation_id, r.email, r.name, r.role, r.password_hash, r.added_at
         FROM jsonb_to_recordset($1::jsonb) AS r(user_id uuid, organisation_id uuid, email text, name text, role text, password_hash text, added_at timestamptz)
         ON CONFLICT DO NOTHING`,
        [json(users)],
      );
    }

    const company = insertPhases(companies, (e) => e.data.company_id, (e) => e.type === 'CompanyRegistered');
    await changeProfiles(company.early, tx);
    if (company.inserts.length > 0) {
      const rows = company.inserts.map(({ data: d }) => ({ ...profileOf(d), company_id: d.company_id, organisation_id: d.organisation_id, workspace_id: d.workspace_id,
        name: d.name, vat_id: d.vat_id, ico: d.ico, dic: d.dic, peppol_id: d.peppol_id, registered_at: d.registered_at }));
      await tx.query(
        `INSERT INTO companies (id, organisation_id, workspace_id, name, vat_id, ico, dic, peppol_id, created_at, ${PROFILE_COLUMNS.join(', ')})
         SELECT r.company_id, r.organisation_id, r.workspace_id, r.name, r.vat_id, r.ico, r.dic, r.peppol_id, r.registered_at, ${PROFILE_COLUMNS.map((c) => `r.${c}`).join(', ')}
         FROM jsonb_to_recordset($1::jsonb) AS r(company_id uuid, organisation_id uuid, workspace_id uuid, name text, vat_id text, ico text, dic text, peppol_id text,
           registered_at timestamptz, ${PROFILE_RECORD})
         ON CONFLICT DO NOTHING`,
        [json(rows)],
      );
    }
    await changeProfiles(company.late, tx);
  },
});
