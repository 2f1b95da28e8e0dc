import { expect } from 'chai';
import { DomainError } from '../shared/domain-error.ts';
import { issuingCompany } from './issuing-company.ts';

describe('the issuing company of an unscoped invoice create', () => {
  const first = { id: 'k1', vat_id: 'SK2020273893' };
  const second = { id: 'k2', vat_id: 'SK2020000004' };
  const refusal = (run: () => unknown) => expect(run).to.throw(DomainError).that.includes({ code: 'company_not_found' });

  it('is the company whose VAT ID is the supplier’s, compared without spaces and case', () => {
    expect(issuingCompany([first, second], 'SK2020000004')).to.equal(second);
    expect(issuingCompany([first, second], ' sk 2020 000004 ')).to.equal(second);
  });

  it('without a supplier VAT ID, is the only company of an organisation with one', () => {
    expect(issuingCompany([first], undefined)).to.equal(first);
    expect(issuingCompany([first], '')).to.equal(first);
  });

  it('without a supplier VAT ID, an organisation with several companies cannot choose: not found', () =>
    refusal(() => issuingCompany([first, second], undefined)));

  it('a VAT ID no company of the organisation has is not found, even with one company', () => {
    refusal(() => issuingCompany([first], 'SK2020000015'));
    refusal(() => issuingCompany([], 'SK2020000015'));
  });
});
