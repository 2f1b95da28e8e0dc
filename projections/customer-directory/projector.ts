import type { CustomerArchived, CustomerRegistered } from '../../events/customers.ts';
import { eventData, runsOfType, type Projector } from '../../src/readmodel/projector.ts';
import { foldText } from '../shared/fold.ts';
import { CustomerDirectory1763800001000 } from './migration.ts';

/** The customer directory: one row per customer, written set-based per run of events. */
export const customerDirectory: Projector = {
  name: 'customer-directory',
  handles: ['CustomerRegistered', 'CustomerArchived'],
  tables: ['customers'],
  migrations: [CustomerDirectory1763800001000],

  async apply(events, tx) {
    for (const run of runsOfType(events)) {
      if (run.type === 'CustomerRegistered') {
        const rows = run.events.map((e) => {
          const d = eventData<CustomerRegistered>(e);
          return { ...d, id: d.customer_id, name_folded: foldText(d.name), version: e.revision };
        });
        await tx.query(
          `INSERT INTO customers (id, organisation_id, company_id, name, name_folded, vat_id, ico, dic, email, phone,
             street, city, postal_code, country_code, peppol_id, note, is_active, created_at, updated_at, version)
           SELECT r.id, r.organisation_id, r.company_id, r.name, r.name_folded, r.vat_id, r.ico, r.dic, r.email, r.phone,
             r.street, r.city, r.postal_code, r.country_code, r.peppol_id, r.note, true, r.registered_at, r.registered_at, r.version
           FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, organisation_id uuid, company_id uuid, name text, name_folded text,
             vat_id text, ico text, dic text, email text, phone text, street text, city text, postal_code text,
             country_code text, peppol_id text, note text, registered_at timestamptz, version int)
           ON CONFLICT (id) DO NOTHING`,
          [JSON.stringify(rows)],
        );
      } else if (run.type === 'CustomerArchived') {
        const rows = run.events.map((e) => {
          const d = eventData<CustomerArchived>(e);
          return { id: d.customer_id, at: d.archived_at, version: e.revision };
        });
        await tx.query(
          `UPDATE customers c SET is_active = false, updated_at = r.at, version = r.version
           FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, at timestamptz, version int) WHERE c.id = r.id`,
          [JSON.stringify(rows)],
        );
      }
    }
  },
};
