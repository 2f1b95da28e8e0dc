import type { CustomerArchived, CustomerRegistered } from '../../events/customers.ts';
import { customerStream } from '../../events/customers.ts';
import { inStream, projectorSpec } from '../../test/support/projector-given.ts';
import { customerDirectory } from './projector.ts';

const org = '00000000-0000-4000-8000-000000000001';
const company = '00000000-0000-4000-8000-0000000000c1';
const registered = (n: number, name: string, company_id: string | null = null): CustomerRegistered => ({
  type: 'CustomerRegistered',
  data: {
    customer_id: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`, organisation_id: org, company_id, name,
    vat_id: 'SK2020000004', ico: null, dic: null, email: null, phone: null, street: '', city: 'Košice', postal_code: '',
    country_code: 'SK', peppol_id: null, note: null, registered_at: '2026-11-22T10:00:00Z',
  },
});
const archived = (n: number): CustomerArchived => ({
  type: 'CustomerArchived', data: { customer_id: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`, archived_at: '2026-11-23T08:30:00Z' },
});
const of = (e: CustomerRegistered) => customerStream(e.data.customer_id);
const ROWS = `SELECT name, name_folded, company_id::text, is_active, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS updated_at, version
  FROM customers ORDER BY name`;

describe('customer directory projector', function () {
  this.timeout(120_000); // a fresh database per scenario
  const given = projectorSpec(customerDirectory);

  it('lists a registered customer once, active, with its name folded for search and its stream revision', async () => {
    const sro = registered(1, 'Žltý Kôň s.r.o.', company);
    await given(inStream(of(sro), sro)).then(ROWS, [
      { name: 'Žltý Kôň s.r.o.', name_folded: 'zlty kon s.r.o.', company_id: company, is_active: true, updated_at: '2026-11-22T10:00', version: 0 },
    ]);
  });

  it('keeps an archived customer, inactive, at the archive revision; the others stay as they were', async () => {
    const a = registered(1, 'Alfa a.s.');
    const b = registered(2, 'Beta s.r.o.');
    await given(inStream(of(a), a, archived(1)), inStream(of(b), b)).then(ROWS, [
      { name: 'Alfa a.s.', name_folded: 'alfa a.s.', company_id: null, is_active: false, updated_at: '2026-11-23T08:30', version: 1 },
      { name: 'Beta s.r.o.', name_folded: 'beta s.r.o.', company_id: null, is_active: true, updated_at: '2026-11-22T10:00', version: 0 },
    ]);
  });
});
