import { expect } from 'chai';
import type { OAuthClientEvent } from '../../events/identity.ts';
import { specFor } from '../shared/given.ts';
import { oauthClientDecider, type OAuthClientCommand } from './oauth-client.ts';

const at = '2026-11-22T10:00:00.000Z';
const secret_hash = 'e'.repeat(64);

describe('OAuth client', () => {
  const given = specFor(oauthClientDecider);
  const issue = (fields: Partial<Extract<OAuthClientCommand, { type: 'IssueOAuthClient' }>> = {}): OAuthClientCommand => ({
    type: 'IssueOAuthClient', client_id: 'c1', organisation_id: 'o1', name: 'ERP', secret_hash, at, issued_by: 'u1', ...fields,
  });
  const issued = (scopes: string[]): OAuthClientEvent => ({
    type: 'OAuthClientIssued', data: { client_id: 'c1', organisation_id: 'o1', name: 'ERP', scopes, secret_hash, issued_at: at, issued_by: 'u1' },
  });
  const revoke = (organisation_id = 'o1'): OAuthClientCommand => ({ type: 'RevokeOAuthClient', client_id: 'c1', organisation_id, at, revoked_by: 'u1' });

  it('defaults the scopes to read, write and send', () => given([]).when(issue()).then([issued(['invoices:read', 'invoices:write', 'invoices:send'])]));
  it('parses comma-separated scopes, trimmed and de-duplicated', () =>
    given([]).when(issue({ scopes: ' validate:only, invoices:read,validate:only ' })).then([issued(['validate:only', 'invoices:read'])]));
  it('refuses a scope the spec does not allow', () =>
    given([]).when(issue({ scopes: 'invoices:read,invoices:delete' })).thenThrows('invalid_scope', { invalid: ['invoices:delete'] }));
  it('refuses an empty scope list', () => given([]).when(issue({ scopes: ' , ' })).thenThrows('scopes_required'));
  it('requires a name', () => given([]).when(issue({ name: '  ' })).thenThrows('name_required'));
  it('accepts a 255-character name and refuses 256', () => {
    given([]).when(issue({ name: 'n'.repeat(256) })).thenThrows('name_too_long');
    expect(oauthClientDecider.decide(issue({ name: 'n'.repeat(255) }), oauthClientDecider.initialState)).to.have.length(1);
  });
  it('refuses a blank name: name_required', () => given([]).when(issue({ name: '' })).thenThrows('name_required'));
  it('refuses a plaintext secret where its hash belongs', () =>
    expect(() => oauthClientDecider.decide(issue({ secret_hash: 'plaintext-secret' }), oauthClientDecider.initialState)).to.throw(/SHA-256/));
  it('issues a client once', () => given([issued(['invoices:read'])]).when(issue()).thenThrows('oauth_client_exists'));
  it('revokes a client', () =>
    given([issued(['invoices:read'])]).when(revoke()).then([{ type: 'OAuthClientRevoked', data: { client_id: 'c1', organisation_id: 'o1', revoked_at: at, revoked_by: 'u1' } }]));
  it('another organisation\'s client is not found', () => given([issued(['invoices:read'])]).when(revoke('o2')).thenThrows('oauth_client_not_found'));
  it('revoking twice changes nothing', () =>
    given([issued(['invoices:read']), { type: 'OAuthClientRevoked', data: { client_id: 'c1', organisation_id: 'o1', revoked_at: at, revoked_by: 'u1' } }])
      .when(revoke())
      .then([]));
});
