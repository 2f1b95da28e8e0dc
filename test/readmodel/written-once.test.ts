import { expect } from 'chai';
import type { DataSource } from 'typeorm';
import type { Actor } from '../../commands/shared/actor.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { customerDirectory } from '../../projections/customer-directory/projector.ts';
import { tenancy } from '../../projections/tenancy/projector.ts';
import type { CompanyRow } from '../../projections/tenancy/rows.ts';
import { buyerOf, companyOf, newLookups } from '../../src/modules/invoices/lookups.ts';
import { WrittenOnce } from '../../src/platform/readmodel/written-once.ts';

const actor = (organisationId: string): Actor => ({ type: 'api_key', id: 'key', organisationId, role: 'admin' });
const company: CompanyRow = {
  id: 'c1', organisation_id: 'org-a', workspace_id: 'w1', name: 'Dodávateľ s.r.o.', vat_id: 'SK2020000004', ico: '12345679',
  dic: '2020000004', peppol_id: '0245:2020000004', iban: 'SK3112000000198742637541', street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01',
  additional_street: '', country_code: 'SK', register_entry: '', contact_name: '', contact_email: '', contact_phone: '', bic: '',
};
/** A read model that must not be asked: what is kept answers without a query. */
const noQueries = { query: () => Promise.reject(new Error('queried')) } as unknown as DataSource;

describe('rows written once (the invoice routes’ company and buyer lookups)', () => {
  it('keeps a found row and asks again for a missing one (it may be projected a moment later)', async () => {
    const cache = new WrittenOnce<string>();
    let loads = 0;
    const load = (row: string | null) => async () => (loads++, row);
    expect(await cache.get('a', load(null))).to.equal(null);
    expect(await cache.get('a', load('A'))).to.equal('A');
    expect(await cache.get('a', load('other'))).to.equal('A');
    expect(loads).to.equal(2);
  });

  it('holds at most its bound, dropping the least recently used', async () => {
    const cache = new WrittenOnce<string>(2);
    await cache.get('a', async () => 'A');
    await cache.get('b', async () => 'B');
    await cache.get('a', async () => 'never');
    await cache.get('c', async () => 'C');
    expect(cache.size).to.equal(2);
    expect(await cache.get('a', async () => 'never')).to.equal('A');
    expect(await cache.get('b', async () => 'B again')).to.equal('B again');
  });

  it('answers 404 for a kept company or customer to another organisation or company', async () => {
    const lookups = newLookups();
    await lookups.companies.get('c1', async () => company);
    await lookups.buyers.get('cu1', async () => ({ organisation_id: 'org-a', company_id: 'c1', party: { name: 'Odberateľ', vat_id: '', ico: null, dic: null, peppol_id: null, street: '', city: '', postal_code: '', country_code: 'SK' } }));
    const deps = { readModels: noQueries, lookups };
    expect((await companyOf(deps, actor('org-a'), 'c1')).name).to.equal('Dodávateľ s.r.o.');
    expect((await buyerOf(deps, actor('org-a'), company, 'cu1')).name).to.equal('Odberateľ');
    const refused = async (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);
    expect(await refused(companyOf(deps, actor('org-b'), 'c1'))).to.be.instanceOf(DomainError).with.property('code', 'company_not_found');
    expect(await refused(buyerOf(deps, actor('org-b'), { ...company, organisation_id: 'org-b' }, 'cu1'))).to.be.instanceOf(DomainError).with.property('code', 'customer_not_found');
    expect(await refused(buyerOf(deps, actor('org-a'), { ...company, id: 'c2' }, 'cu1'))).to.be.instanceOf(DomainError).with.property('code', 'customer_not_found');
  });

  // Keeping these rows is right only while no event changes what is read from them after the first.
  // A company's identity never changes; its profile does (CompanyProfileUpdated), so an invoice reads
  // the profile fresh (src/modules/invoices/invoices.ts, contentDefaults), never from the kept row.
  // Another event that edits a company, or a customer's party fields, must come with eviction.
  it('guard: companies are registered and only their profile changes, customers only registered and archived', () => {
    expect(tenancy.handles.filter((type) => type.startsWith('Company'))).to.deep.equal(['CompanyRegistered', 'CompanyProfileUpdated']);
    expect(customerDirectory.handles).to.deep.equal(['CustomerRegistered', 'CustomerArchived']);
  });
});
