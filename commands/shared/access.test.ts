import { expect } from 'chai';
import { NotFound, visibleTo, type Owner } from './access.ts';
import { DomainError } from './domain-error.ts';

describe('access: which company of an organisation sees a resource', () => {
  const ofCompany: Owner = { organisation_id: 'o1', company_id: 'k1' };
  const organisationWide: Owner = { organisation_id: 'o1', company_id: null };

  it('a company sees its own resources', () => expect(visibleTo(ofCompany, { organisationId: 'o1', companyId: 'k1' })).to.equal(true));

  it('another company of the same organisation does not', () =>
    expect(visibleTo(ofCompany, { organisationId: 'o1', companyId: 'k2' })).to.equal(false));

  it('every company sees an organisation-wide resource', () =>
    expect(visibleTo(organisationWide, { organisationId: 'o1', companyId: 'k2' })).to.equal(true));

  it('an organisation-wide route sees every company’s resources of its organisation', () => {
    expect(visibleTo(ofCompany, { organisationId: 'o1', companyId: null })).to.equal(true);
    expect(visibleTo(organisationWide, { organisationId: 'o1', companyId: null })).to.equal(true);
  });

  it('nothing of another organisation is seen, whatever the company', () => {
    expect(visibleTo(ofCompany, { organisationId: 'o2', companyId: null })).to.equal(false);
    expect(visibleTo(ofCompany, { organisationId: 'o2', companyId: 'k1' })).to.equal(false);
    expect(visibleTo(organisationWide, { organisationId: 'o2', companyId: 'k1' })).to.equal(false);
  });

  it('a refusal is a 404 with the resource’s code, a DomainError like every refusal', () => {
    const refusal = new NotFound('invoice_not_found', 'invoice not found');
    expect(refusal).to.be.instanceOf(DomainError);
    expect(refusal).to.include({ code: 'invoice_not_found' });
  });
});
