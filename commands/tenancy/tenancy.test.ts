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
  });

  describe('API key', () => {
    const given = specFor(apiKeyDecider);
    const data = { api_key_id: 'k1', organisation_id: 'o1', name: 'ERP', key_prefix: 'svc_abcd', key_hash: 'f'.repeat(64), scopes: [], issued_at: at, issued_by: 'u1' };
    it('computes the expiry from expires_in_days', () =>
      given([]).when({ type: 'IssueApiKey', data, expires_in_days: 30 }).then([{ type: 'ApiKeyIssued', data: { ...data, expires_at: '2026-12-22T10:00:00.000Z' } }]));
    it('refuses an expiry outside 1-365 days', () => given([]).when({ type: 'IssueApiKey', data, expires_in_days: 366 }).thenThrows('invalid_expiry'));
    it('revoking twice changes nothing', () =>
      given([
        { type: 'ApiKeyIssued', data: { ...data, expires_at: null } },
        { type: 'ApiKeyRevoked', data: { api_key_id: 'k1', revoked_at: at } },
      ])
        .when({ type: 'RevokeApiKey', api_key_id: 'k1', at })
        .then([]));
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
  });
});
