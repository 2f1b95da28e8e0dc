import { expect } from 'chai';
import { workspaceCompanies } from './workspace-companies.ts';

const companies = [{ id: 'c1', name: 'Prvá s.r.o.' }, { id: 'c2', name: 'Druhá a.s.' }];

describe('workspace companies: the caller\'s role', () => {
  it('a user sees their own role on every company', () =>
    expect(workspaceCompanies(companies, { type: 'user', role: 'accountant' })).to.deep.equal([
      { id: 'c1', name: 'Prvá s.r.o.', role: 'accountant' }, { id: 'c2', name: 'Druhá a.s.', role: 'accountant' },
    ]));
  it('an API key counts as admin, whatever it was resolved with', () =>
    expect(workspaceCompanies(companies, { type: 'api_key', role: 'approver' }).map((c) => c.role)).to.deep.equal(['admin', 'admin']));
  it('an OAuth client acts in the role its token carries', () =>
    expect(workspaceCompanies(companies, { type: 'oauth_client', role: 'approver' }).map((c) => c.role)).to.deep.equal(['approver', 'approver']));
  it('an empty workspace is an empty list', () => expect(workspaceCompanies([], { type: 'api_key', role: 'admin' })).to.deep.equal([]));
});
