import { expect } from 'chai';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { specFor } from '../shared/given.ts';
import { skIban } from '../shared/slovak-identifiers.ts';
import { apiKeyDecider } from './api-key.ts';
import { companyFields } from './company.ts';
import { organisationDecider } from './organisation.ts';

const at = '2026-11-22T10:00:00.000Z';

describe('tenancy', () => {
  describe('organisation', () => {
    const given = specFor(organisationDecider);
    const created = { type: 'OrganisationCreated', data: { organisation_id: 'o1', name: 'Org', plan: 'Team Business', created_at: at } } as const;
    const addUser = (email: string) =>
      ({ type: 'AddUser', organisation_id: 'o1', user_id: 'u2', email, name: 'U', role: 'accountant', password_hash: 'h', at }) as const;
    const added = { type: 'UserAdded', data: { organisation_id: 'o1', user_id: 'u1', email: 'a@b.sk', name: 'A', role: 'admin', password_hash: 'h', added_at: at } } as const;

    it('creates an organisation once', () =>
      given([created]).when({ type: 'CreateOrganisation', organisation_id: 'o1', name: 'Org', plan: 'Team Business', at }).thenThrows('organisation_exists'));
    it('refuses a workspace in an organisation that does not exist', () =>
      given([]).when({ type: 'CreateWorkspace', organisation_id: 'o1', workspace_id: 'w1', name: 'W', at }).thenThrows('organisation_not_found'));
    it('keeps user e-mails unique in the organisation, ignoring case', () => given([created, added]).when(addUser('A@B.sk')).thenThrows('user_exists'));
    it('changes the plan, and the same plan again changes nothing', () => {
      given([created]).when({ type: 'ChangePlan', organisation_id: 'o1', plan: 'Solo Free', at })
        .then([{ type: 'OrganisationPlanChanged', data: { organisation_id: 'o1', plan: 'Solo Free', previous_plan: 'Team Business', changed_at: at } }]);
      given([created]).when({ type: 'ChangePlan', organisation_id: 'o1', plan: 'Team Business', at }).thenNothingHappened();
      given([]).when({ type: 'ChangePlan', organisation_id: 'o1', plan: 'Solo Free', at }).thenThrows('organisation_not_found');
    });
  });

  describe('API key', () => {
    const given = specFor(apiKeyDecider);
    const data = { api_key_id: 'k1', organisation_id: 'o1', name: 'ERP', key_prefix: 'svc_abcd', key_hash: 'f'.repeat(64), scopes: [], issued_at: at, issued_by: 'u1' };
    it('computes the expiry from expires_in_days', () =>
      given([]).when({ type: 'IssueApiKey', data, expires_in_days: 30 }).then([{ type: 'ApiKeyIssued', data: { ...data, expires_at: '2026-12-22T10:00:00.000Z' } }]));
    it('refuses an expiry outside 1-365 days', () => given([]).when({ type: 'IssueApiKey', data, expires_in_days: 366 }).thenThrows('invalid_expiry'));
    const issued = { type: 'ApiKeyIssued' as const, data: { ...data, expires_at: null } };
    const revoked = { type: 'ApiKeyRevoked' as const, data: { api_key_id: 'k1', revoked_at: at } };
    it('revoking twice changes nothing', () => given([issued, revoked]).when({ type: 'RevokeApiKey', api_key_id: 'k1', organisation_id: 'o1', at }).thenNothingHappened());
    it('a key of another organisation is not found, to revoke or to change', () => {
      given([issued]).when({ type: 'RevokeApiKey', api_key_id: 'k1', organisation_id: 'o2', at }).thenThrows('api_key_not_found');
      given([issued]).when({ type: 'UpdateApiKey', api_key_id: 'k1', organisation_id: 'o2', name: 'X', at }).thenThrows('api_key_not_found');
    });
    it('changes the name and keeps the scopes; the same values again change nothing', () => {
      given([issued]).when({ type: 'UpdateApiKey', api_key_id: 'k1', organisation_id: 'o1', name: ' Shop ', at })
        .then([{ type: 'ApiKeyUpdated', data: { api_key_id: 'k1', name: 'Shop', scopes: [], updated_at: at } }]);
      given([issued]).when({ type: 'UpdateApiKey', api_key_id: 'k1', organisation_id: 'o1', name: 'ERP', scopes: [], at }).then([]);
    });
    it('refuses unknown scopes and a name over 100 characters', () => {
      given([]).when({ type: 'IssueApiKey', data: { ...data, scopes: ['invoices:delete'] }, expires_in_days: null }).thenThrows('invalid_scope');
      given([issued]).when({ type: 'UpdateApiKey', api_key_id: 'k1', organisation_id: 'o1', name: 'x'.repeat(101), at }).thenThrows('invalid_name');
    });
    it('a revoked key cannot be changed', () =>
      given([issued, revoked]).when({ type: 'UpdateApiKey', api_key_id: 'k1', organisation_id: 'o1', name: 'New', at }).thenThrows('api_key_revoked'));
  });

  describe('company identifiers', () => {
    const valid = { name: 'Dodávateľ s.r.o.', vat_id: 'SK2020273893', ico: '35757442', dic: '2020273893', peppol_id: '9950:sk2020273893svctest', iban: skIban('1100', '2620000123') };
    it('accepts a company whose identifiers are all valid', () => expect(companyFields(valid).vat_id).to.equal('SK2020273893'));
    it('refuses a VAT ID that is not SK + the DIČ', () => {
      expect(() => companyFields({ ...valid, dic: '2020273882' })).to.throw(InvalidFields, /SK \+ the DIČ/);
    });
    it('refuses an IBAN with wrong check digits', () => {
      expect(() => companyFields({ ...valid, iban: 'SK0011000000002620000123' })).to.throw(InvalidFields, /iban/);
    });
    it('keeps an address, trimmed, and refuses a post code that is not NNN NN or NNNNN; none is none', () => {
      expect(companyFields({ ...valid, street: ' Hlavná 1 ', city: 'Bratislava', postal_code: '81101' })).to.include({ street: 'Hlavná 1', city: 'Bratislava', postal_code: '81101' });
      expect(() => companyFields({ ...valid, postal_code: '8110' })).to.throw(InvalidFields, /post code/);
      expect(companyFields(valid)).to.not.have.any.keys('street', 'city', 'postal_code');
    });
  });
});
