import { DomainError } from '../shared/domain-error.ts';
import { normaliseVatId } from '../shared/slovak-identifiers.ts';

/**
 * The company an unscoped create (POST /invoices) issues from, among the organisation's: the one
 * whose VAT ID is the supplier's (compared normalised), or, without a supplier VAT ID, the only
 * company an organisation with one has. Anything else is company_not_found.
 */
export function issuingCompany<C extends { vat_id: string }>(companies: readonly C[], supplierVatId: string | undefined): C {
  const wanted = supplierVatId ? normaliseVatId(supplierVatId) : '';
  const company = wanted ? companies.find((c) => normaliseVatId(c.vat_id) === wanted) : companies.length === 1 ? companies[0] : undefined;
  if (!company) {
    throw new DomainError(
      'company_not_found',
      wanted ? `no company of this organisation has VAT ID ${wanted}` : 'give supplier.vat_id to choose the issuing company, or use /companies/{company_id}/invoices',
    );
  }
  return company;
}
