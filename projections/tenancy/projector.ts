import type { CompanyRegistered, OrganisationCreated, OrganisationPlanChanged, UserAdded, WorkspaceCreated } from '../../events/tenancy.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { CompanyAddress1766400000000 } from './address-migration.ts';
import { Tenancy1763800000500 } from './migration.ts';

/** Organisations, workspaces, users and companies: few events, one statement each. */
export const tenancy = defineProjector<OrganisationCreated | WorkspaceCreated | UserAdded | CompanyRegistered | OrganisationPlanChanged>({
  name: 'tenancy',
  handles: ['OrganisationCreated', 'WorkspaceCreated', 'UserAdded', 'CompanyRegistered', 'OrganisationPlanChanged'],
  tables: ['organisations', 'workspaces', 'users', 'companies'],
  migrations: [Tenancy1763800000500, CompanyAddress1766400000000],

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
          await tx.query(
            `INSERT INTO companies (id, organisation_id, workspace_id, name, vat_id, ico, dic, peppol_id, iban, street, city, postal_code, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING`,
            [d.company_id, d.organisation_id, d.workspace_id, d.name, d.vat_id, d.ico, d.dic, d.peppol_id, d.iban, d.street ?? '', d.city ?? '', d.postal_code ?? '', d.registered_at],
          );
          break;
        }
      }
    }
  },
});
