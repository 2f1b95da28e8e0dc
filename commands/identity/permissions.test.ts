import { expect } from 'chai';
import type { Actor, Role } from '../shared/actor.ts';
import { DomainError } from '../shared/domain-error.ts';
import { authorize, mayPerform, PERMISSIONS, type Action } from './permissions.ts';

const user = (role: Role): Actor => ({ type: 'user', id: 'u1', organisationId: 'o1', role });
const allowed = (role: Role) => (Object.keys(PERMISSIONS) as Action[]).filter((action) => mayPerform(user(role), action));

describe('permissions', () => {
  it('an admin may do everything', () => expect(allowed('admin')).to.deep.equal(Object.keys(PERMISSIONS)));
  it('an approver reads, approves and sends', () =>
    expect(allowed('approver')).to.have.members(['invoices.read', 'invoices.approve', 'invoices.send', 'customers.read', 'payments.read', 'companies.lookup', 'workspaces.read']));
  it('an accountant reads, writes drafts, customers and payments and asks for approval', () =>
    expect(allowed('accountant')).to.have.members([
      'invoices.read', 'invoices.write', 'invoices.request_approval', 'customers.read', 'customers.write', 'payments.read', 'payments.write', 'companies.lookup', 'workspaces.read',
    ]));
  it('every role, and an OAuth client, may look companies up and read its workspaces\' companies', () => {
    for (const role of ['admin', 'approver', 'accountant'] as const) {
      expect([mayPerform(user(role), 'companies.lookup'), mayPerform(user(role), 'workspaces.read')], role).to.deep.equal([true, true]);
    }
    const client: Actor = { type: 'oauth_client', id: 'oc_1', organisationId: 'o1', role: 'accountant' };
    expect([mayPerform(client, 'companies.lookup'), mayPerform(client, 'workspaces.read')]).to.deep.equal([true, true]);
  });
  it('an API key acts as an admin', () => {
    const key: Actor = { type: 'api_key', id: 'k1', organisationId: 'o1', role: 'accountant' };
    expect(() => authorize(key, 'oauth_clients.manage')).not.to.throw();
  });
  it('refuses with 403 insufficient_role, naming the roles that may', () => {
    let caught: unknown;
    try {
      authorize(user('accountant'), 'api_keys.manage');
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(DomainError);
    expect(caught).to.include({ code: 'insufficient_role' });
    expect((caught as DomainError).extra).to.deep.equal({ required_roles: ['admin'], role: 'accountant' });
  });
  for (const action of ['api_keys.manage', 'oauth_clients.manage', 'webhooks.manage', 'security_events.read'] as const) {
    it(`an accountant may not ${action}`, () => expect(() => authorize(user('accountant'), action)).to.throw(DomainError));
  }
  it('an OAuth client acts for the organisation but never manages credentials or reads the security log', () => {
    const client: Actor = { type: 'oauth_client', id: 'oc_1', organisationId: 'o1', role: 'admin' };
    expect(mayPerform(client, 'invoices.send')).to.equal(true);
    for (const action of ['api_keys.manage', 'oauth_clients.manage', 'webhooks.manage', 'security_events.read', 'settings.manage'] as const) {
      expect(() => authorize(client, action), action).to.throw(DomainError, /OAuth client/);
    }
  });
  it('an approver may not write invoices', () => expect(() => authorize(user('approver'), 'invoices.write')).to.throw(DomainError));
});
