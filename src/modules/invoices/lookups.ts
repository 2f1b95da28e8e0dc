import { toParty } from '../../../commands/invoices/content.ts';
import type { Party } from '../../../commands/invoices/model.ts';
import { visibleTo } from '../../../commands/shared/access.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { getCustomer } from '../../../projections/customer-directory/queries.ts';
import { findCompany } from '../../../projections/tenancy/queries.ts';
import type { CompanyRow } from '../../../projections/tenancy/rows.ts';
import { WrittenOnce } from '../../platform/readmodel/written-once.ts';
import type { Core } from '../../platform/core.ts';

/** A directory customer as an invoice's buyer: who may use it, and the party block it gives. */
export interface Buyer {
  organisation_id: string;
  /** null: every company of the organisation may invoice it */
  company_id: string | null;
  party: Party;
}

/**
 * What every invoice request looks up before it decides, kept in memory. A company's identity
 * (organisation, name, identifiers) never changes once projected, and archiving a customer leaves
 * its party fields as they were. A company's profile (address, bank, register entry) does change
 * (CompanyProfileUpdated): an invoice reads it fresh where it takes it (invoices.ts), never from
 * the kept row.
 */
export interface Lookups {
  companies: WrittenOnce<CompanyRow>;
  buyers: WrittenOnce<Buyer>;
}

export const newLookups = (): Lookups => ({ companies: new WrittenOnce(), buyers: new WrittenOnce() });

type Deps = Pick<Core, 'readModels'> & { lookups: Lookups };

/** The caller's company, or 404 (also for another organisation's). */
export async function companyOf(deps: Deps, actor: Actor, companyId: string): Promise<CompanyRow> {
  const company = await deps.lookups.companies.get(companyId, () => findCompany(deps.readModels, actor.organisationId, companyId));
  if (!company || company.organisation_id !== actor.organisationId) throw new DomainError('company_not_found', 'company not found');
  return company;
}

/** The buyer party of a directory customer the company may invoice, or 404. */
export async function buyerOf(deps: Deps, actor: Actor, company: CompanyRow, customerId: string): Promise<Party> {
  const scope = { organisationId: actor.organisationId, companyId: company.id };
  const buyer = await deps.lookups.buyers.get(customerId, async () => {
    const customer = await getCustomer(deps.readModels, scope, customerId);
    return customer && { organisation_id: customer.organisation_id, company_id: customer.company_id, party: toParty(customer) };
  });
  // the cache holds customers by id, whoever asked: the rule decides again for this caller
  if (!buyer || !visibleTo(buyer, scope)) throw new DomainError('customer_not_found', 'customer_id names no customer of this company');
  return buyer.party;
}
