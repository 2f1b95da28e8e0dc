import { expect } from 'chai';
import type { CustomerEvent } from '../../events/customers.ts';
import { NotFound, type RequestScope } from '../shared/access.ts';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { specFor } from '../shared/given.ts';
import { customerFields } from './customer-fields.ts';
import { customerDecider } from './decider.ts';
import { vatIdClaimScope, vatIdReservationDecider } from './vat-id-reservation.ts';

const given = specFor(customerDecider);
const fields = customerFields({ name: 'Odberateľ s.r.o.', vat_id: 'SK2020273893' });
const registered: CustomerEvent = {
  type: 'CustomerRegistered',
  data: { customer_id: 'c1', organisation_id: 'o1', company_id: null, ...fields, registered_at: '2026-11-22T10:00:00Z' },
};
const register = {
  type: 'RegisterCustomer',
  customer_id: 'c1',
  organisation_id: 'o1',
  company_id: null,
  fields,
  at: '2026-11-22T10:00:00Z',
} as const;

const ofCompany: CustomerEvent = { ...registered, data: { ...registered.data, company_id: 'k1' } };
const archived: CustomerEvent = { type: 'CustomerArchived', data: { customer_id: 'c1', archived_at: 'x' } };
const archive = (scope: RequestScope, at = 'x') => ({ type: 'ArchiveCustomer', customer_id: 'c1', scope, at }) as const;
const customerNotFound = (e: NotFound) => expect(e.code).to.equal('customer_not_found');

function problemsOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidFields) return error.problems.map((p) => [p.loc[1], p.msg]);
  }
  return [];
}

describe('customers', () => {
  it('registers a new customer with its normalised fields', () => given([]).when(register).then([registered]));

  it('refuses a second registration of the same customer', () => given([registered]).when(register).thenThrows('customer_exists'));

  it('archives an active customer', () =>
    given([registered]).when(archive({ organisationId: 'o1', companyId: null }, '2026-11-23T00:00:00Z')).then([
      { type: 'CustomerArchived', data: { customer_id: 'c1', archived_at: '2026-11-23T00:00:00Z' } },
    ]));

  it('archiving twice changes nothing', () =>
    given([registered, { type: 'CustomerArchived', data: { customer_id: 'c1', archived_at: 'x' } }])
      .when(archive({ organisationId: 'o1', companyId: null }, 'y'))
      .thenNothingHappened());

  it('cannot archive a customer that does not exist', () =>
    given([]).when(archive({ organisationId: 'o1', companyId: null })).thenThrows(NotFound, customerNotFound));

  it('a customer of another organisation is not found', () =>
    given([registered]).when(archive({ organisationId: 'o2', companyId: null })).thenThrows(NotFound, customerNotFound));

  it('a company’s customer is not found through another company of the same organisation', () =>
    given([ofCompany]).when(archive({ organisationId: 'o1', companyId: 'k2' })).thenThrows(NotFound, customerNotFound));

  it('a company acts on its own and on organisation-wide customers', () => {
    given([ofCompany]).when(archive({ organisationId: 'o1', companyId: 'k1' })).then([archived]);
    given([registered]).when(archive({ organisationId: 'o1', companyId: 'k2' })).then([archived]);
  });

  describe('fields', () => {
    it('normalises identifiers, postal code and phone', () => {
      const f = customerFields({
        name: ' A ',
        vat_id: 'sk 2020273893',
        dic: '2020 273 893',
        ico: '35 757 442',
        postal_code: '81101',
        phone: '+421 2 1234 5678',
      });
      expect(f).to.include({ name: 'A', vat_id: 'SK2020273893', dic: '2020273893', ico: '35757442', postal_code: '811 01', phone: '+421212345678', country_code: 'SK' });
    });
    it('accepts a customer that is not VAT-registered (empty vat_id)', () =>
      expect(customerFields({ name: 'Živnostník', vat_id: '', ico: '35757442' }).vat_id).to.equal(''));
    it('checks each Slovak identifier by its own rule, all at once', () =>
      expect(problemsOf(() => customerFields({ name: 'X', vat_id: 'SK2020273894', ico: '35757443', dic: '35757442' }))).to.deep.equal([
        ['vat_id', 'IČ DPH is not divisible by 11'],
        ['ico', 'IČO check digit does not match'],
        ['dic', 'DIČ must be 10 digits (8 digits looks like an IČO)'],
      ]));
    it('refuses an SK VAT ID that is not SK + the DIČ', () =>
      expect(problemsOf(() => customerFields({ name: 'X', vat_id: 'SK2020273893', dic: '2020273882' }))).to.deep.equal([
        ['dic', 'an SK VAT ID is SK + the DIČ: vat_id and dic disagree'],
      ]));
    it('refuses a blank name, a bad Slovak postal code, a local phone and a malformed Peppol ID', () =>
      expect(problemsOf(() => customerFields({ name: '  ', vat_id: '', postal_code: '8110', phone: '02 1234 5678', peppol_id: '0245:35757442' })).map(([f]) => f)).to.deep.equal([
        'name',
        'postal_code',
        'phone',
        'peppol_id',
      ]));
    it('leaves foreign postal codes alone', () =>
      expect(customerFields({ name: 'X', vat_id: 'CZ12345678', country_code: 'cz', postal_code: '110 00' }).postal_code).to.equal('110 00'));
  });

  describe('VAT ID uniqueness in the organisation', () => {
    const spec = specFor(vatIdReservationDecider);
    const t0 = '2026-11-22T10:00:00.000Z';
    const later = '2026-11-22T10:05:00.000Z';
    const scope = vatIdClaimScope('o1');
    const reserved = { type: 'ValueClaimed', data: { scope, value: 'SK2020273893', holder_id: 'c1', claimed_at: t0 } } as const;
    const claim = (holder_id: string, holder_exists: boolean, at = t0) =>
      ({ type: 'ClaimValue', scope, value: 'SK2020273893', holder_id, holder_exists, at }) as const;

    it('claims a free VAT ID', () => spec([]).when(claim('c1', false)).then([reserved]));
    it('refuses a VAT ID another existing customer holds, naming it', () =>
      spec([reserved]).when(claim('c2', true, later)).thenThrows('customer_vat_id_conflict', { customer_id: 'c1' }));
    it('refuses a fresh claim whose registration may still be in flight', () =>
      spec([reserved]).when(claim('c2', false, '2026-11-22T10:00:30.000Z')).thenThrows('customer_vat_id_conflict'));
    it('takes over a claim whose customer was never written, once it is a minute old', () =>
      spec([reserved]).when(claim('c2', false, later)).then([{ ...reserved, data: { ...reserved.data, holder_id: 'c2', claimed_at: later } }]));
    it('a repeated claim by the same customer changes nothing', () => spec([reserved]).when(claim('c1', true)).then([]));
  });
});
