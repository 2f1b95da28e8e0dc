import type { CompanyProfileUpdated, CompanyRegistered, OrganisationCreated, OrganisationPlanChanged, UserAdded, WorkspaceCreated } from '../../events/tenancy.ts';
import { profileOf } from '../../commands/tenancy/company-profile.ts';
import type { CompanyProfile } from '../../events/tenancy.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { CompanyAddress1766400000000 } from './address-migration.ts';
import { Tenancy1763800000500 } from './migration.ts';
import { CompanyProfile1767040000000 } from './profile-migration.ts';

/** The profile's columns, named as its fields. */
const PROFILE_COLUMNS: (keyof CompanyProfile)[] = [
  'street', 'additional_street', 'city', 'postal_code', 'country_code', 'register_entry', 'contact_name', 'contact_email', 'contact_phone', 'iban', 'bic',
];

/** Organisations, workspaces, users and companies: few events, one statement each. */
export const tenancy = defineProjector<OrganisationCreated | WorkspaceCreated | UserAdded | CompanyRegistered | CompanyProfileUpdated | OrganisationPlanChanged>({
  name: 'tenancy',
  handles: ['OrganisationCreated', 'WorkspaceCreated', 'UserAdded', 'CompanyRegistered', 'CompanyProfileUpdated', 'OrganisationPlanChanged'],
  tables: ['organisations', 'workspaces', 'users', 'companies'],
  migrations: [Tenancy1763800000500, CompanyAddress1766400000000, CompanyProfile1767040000000],

  async apply(events, tx) {
    for (const event of events) {
      switch (event.type) {
        case 'OrganisationCreated': {
          const d = event.data;
          await tx.query('INSERT INTO organisations (id, name, plan, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
            d.organisation_id, d.name, d.plan, d.created_at,
          ]);
          break;
        }
        case 'OrganisationPlanChanged': {
          const d = event.data;
          await tx.query('UPDATE organisations SET plan = $2 WHERE id = $1', [d.organisation_id, d.plan]);
          break;
        }
        case 'WorkspaceCreated': {
          const d = event.data;
          await tx.query('INSERT INTO workspaces (id, organisation_id, name, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
            d.workspace_id, d.organisation_id, d.name, d.created_at,
          ]);
          break;
        }
        case 'UserAdded': {
          const d = event.data;
          await tx.query(
            `INSERT INTO users (id, organisation_id, email, name, role, password_hash, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
            [d.user_id, d.organisation_id, d.email, d.name, d.role, d.password_hash, d.added_at],
          );
          break;
        }
        case 'CompanyRegistered': {
          const d = event.data;
          const p = profileOf(d);
          await tx.query(
            `INSERT INTO companies (id, organisation_id, workspace_id, name, vat_id, ico, dic, peppol_id, created_at, ${PROFILE_COLUMNS.join(', ')})
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ${PROFILE_COLUMNS.map((_, i) => `$${i + 10}`).join(', ')}) ON CONFLICT DO NOTHING`,
            [d.company_id, d.organisation_id, d.workspace_id, d.name, d.vat_id, d.ico, d.dic, d.peppol_id, d.registered_at, ...PROFILE_COLUMNS.map((c) => p[c])],
          );
          break;
        }
        case 'CompanyProfileUpdated': {
          const d = event.data;
          await tx.query(`UPDATE companies SET ${PROFILE_COLUMNS.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`, [d.company_id, ...PROFILE_COLUMNS.map((c) => d[c])]);
          break;
        }
      }
    }
  },
});
