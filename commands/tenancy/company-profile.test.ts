import { expect } from 'chai';
import type { CompanyRegistered } from '../../events/tenancy.ts';
import { specFor } from '../shared/given.ts';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { skIban } from '../shared/slovak-identifiers.ts';
import { companyDecider, companyFields } from './company.ts';

const at = '2026-11-29T21:00:00.000Z';
const iban = skIban('1100', '2620000123');
const registered: CompanyRegistered = {
  type: 'CompanyRegistered',
  data: {
    company_id: 'c1', organisation_id: 'o1', workspace_id: 'w1', name: 'Dodávateľ s.r.o.', vat_id: 'SK2020273893', ico: '35757442', dic: '2020273893',
    peppol_id: '9950:sk2020273893svctest', iban, street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01', registered_at: at,
  },
};
const update = (changes: Record<string, string>, organisation_id = 'o1') => ({ type: 'UpdateCompanyProfile', company_id: 'c1', organisation_id, changes, at }) as const;
const locs = (error: InvalidFields) => error.problems.map((p) => p.loc.join('.'));
const entry = 'zapísaná v Obchodnom registri Okresného súdu Bratislava I, oddiel Sro, vložka č. 12345/B';

describe('company profile', () => {
  const given = specFor(companyDecider);

  it('changes the fields given, trimmed, and carries the whole profile; the rest stays', () =>
    given([registered]).when(update({ register_entry: ` ${entry} `, bic: 'tatr skbx', additional_street: '3. poschodie' })).then([{
      type: 'CompanyProfileUpdated',
      data: {
        company_id: 'c1', organisation_id: 'o1', street: 'Hlavná 1', additional_street: '3. poschodie', city: 'Bratislava', postal_code: '811 01', country_code: 'SK',
        register_entry: entry, contact_name: '', contact_email: '', contact_phone: '', iban, bic: 'TATRSKBX', updated_at: at,
      },
    }]));

  it('the same values again change nothing', () => given([registered]).when(update({ street: ' Hlavná 1 ', city: 'Bratislava' })).thenNothingHappened());

  it('another organisation\'s company, or none, is not found', () => {
    given([registered]).when(update({ city: 'Košice' }, 'o2')).thenThrows('company_not_found');
    given([]).when(update({ city: 'Košice' })).thenThrows('company_not_found');
  });

  it('refuses every bad field at once, with its loc: post code, e-mail, phone, IBAN, BIC, country', () =>
    given([registered]).when(update({ postal_code: '8110', contact_email: 'nobody', contact_phone: '02 1234', iban: 'SK0011000000002620000123', bic: 'TATRSK', country_code: 'SVK' }))
      .thenThrows(InvalidFields, (error) => expect(locs(error)).to.have.members(['body.country_code', 'body.contact_email', 'body.contact_phone', 'body.iban', 'body.bic'])));

  it('a Slovak seat\'s post code is NNN NN or NNNNN; a foreign seat\'s is its own', () => {
    given([registered]).when(update({ postal_code: '8110' })).thenThrows(InvalidFields, (error) => expect(locs(error)).to.deep.equal(['body.postal_code']));
    const [event] = companyDecider.decide(update({ country_code: 'at', postal_code: '1010', city: 'Wien' }), companyDecider.evolve(companyDecider.initialState, registered));
    expect(event?.data).to.include({ country_code: 'AT', postal_code: '1010', city: 'Wien' });
  });

  it('the BIC names the IBAN\'s country', () =>
    given([registered]).when(update({ bic: 'GIBACZPX' })).thenThrows(InvalidFields, (error) => expect(error.problems[0]!.msg).to.match(/bank in CZ.*account in SK/)));

  it('the IBAN may change but not be cleared', () =>
    given([registered]).when(update({ iban: '' })).thenThrows(InvalidFields, (error) => expect(locs(error)).to.deep.equal(['body.iban'])));

  it('folds into the profile GET shows', () => {
    const state = [registered].reduce(companyDecider.evolve, companyDecider.initialState);
    expect(state.exists && state.profile).to.deep.include({ street: 'Hlavná 1', country_code: 'SK', bic: '', register_entry: '' });
  });

  it('a registration may carry the profile, checked by the same rules', () => {
    const { company_id: _c, organisation_id: _o, workspace_id: _w, registered_at: _r, ...fields } = registered.data;
    expect(companyFields({ ...fields, register_entry: entry, bic: 'TATRSKBX' })).to.include({ register_entry: entry, bic: 'TATRSKBX' });
    expect(() => companyFields({ ...fields, contact_email: 'x' })).to.throw(InvalidFields, /e-mail/);
  });
});
