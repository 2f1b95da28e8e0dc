import type { CustomerArchived, CustomerEvent } from '../../events/customers.ts';
import type { EntityManager } from 'typeorm';
import type { Recorded } from '../../src/platform/eventstore/port.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { foldByKey, insertPhases } from '../shared/phases.ts';
import { foldText } from '../shared/fold.ts';
import { CustomerDirectory1763800001000 } from './migration.ts';

/** Archivals of one phase (insertPhases) in one statement: each customer's last one is what the row keeps. */
async function archive(events: readonly Recorded<CustomerArchived>[], tx: EntityManager): Promise<void> {
  if (events.length === 0) return;
  const rows = foldByKey<{ id: string; at: string; version: number }, Recorded<CustomerArchived>>(events, (e) => e.data.customer_id, (_, e) => ({ id: e.data.customer_id, at: e.data.archived_at, version: e.revision }));
  // the ids also as an array: the planner then reads the rows by key, never scans the table
  await tx.query(
    `UPDATE customers c SET is_active = false, updated_at = r.at, version = r.version
     FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, at timestamptz, version int) WHERE c.id = r.id AND c.id = ANY($2::uuid[])`,
    [JSON.stringify(rows), rows.map((r) => r.id)],
  );
}

/** The customer directory: one row per customer; a batch is at most three statements (insertPhases). */
export const customerDirectory = defineProjector<CustomerEvent>({
  name: 'customer-directory',
  handles: ['CustomerRegistered', 'CustomerArchived'],
  tables: ['customers'],
  migrations: [CustomerDirectory1763800001000],

  async apply(events, tx) {
    const { early, inserts, late } = insertPhases(events, (e) => e.data.customer_id, (e) => e.type === 'CustomerRegistered');
    await archive(early, tx);
    if (inserts.length > 0) {
      const rows = inserts.map(({ data: d, revision }) => ({ ...d, id: d.customer_id, name_folded: foldText(d.name), version: revision }));
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
    }
    await archive(late, tx);
  },
});
