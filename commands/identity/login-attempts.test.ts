import { expect } from 'chai';
import { credentialCheckFailed, loginFailed, loginSucceeded } from './login-attempts.ts';

const at = '2026-11-22T10:00:00.000Z';

describe('login attempts', () => {
  it('records a failed login of an unknown e-mail without an organisation', () =>
    expect(loginFailed({ email: ' Eve@Example.SK ', organisation_id: null, user_id: null, ip: '203.0.113.9', reason: 'unknown_email', at })).to.deep.equal({
      type: 'LoginFailed',
      data: { email: 'eve@example.sk', organisation_id: null, user_id: null, ip: '203.0.113.9', reason: 'unknown_email', at },
    }));
  it('caps what an attacker types so the log cannot be flooded', () =>
    expect(loginFailed({ email: 'a'.repeat(10_000), organisation_id: null, user_id: null, ip: 'x'.repeat(1000), reason: 'unknown_email', at }).data)
      .to.satisfy((d: { email: string; ip: string }) => d.email.length === 320 && d.ip.length === 64));
  it('records a successful login with its method', () =>
    expect(loginSucceeded({ email: 'A@b.sk', organisation_id: 'o1', user_id: 'u1', ip: '::1', method: 'password_totp', at }).data).to.include({
      email: 'a@b.sk', method: 'password_totp',
    }));
  it('records a failed credential check of a signed-in user with what was tried', () =>
    expect(credentialCheckFailed({ organisation_id: 'o1', user_id: 'u1', email: 'A@b.sk', ip: 'x'.repeat(100), action: 'disable_totp', reason: 'invalid_totp_code', at }))
      .to.deep.equal({
        type: 'CredentialCheckFailed',
        data: { organisation_id: 'o1', user_id: 'u1', email: 'a@b.sk', ip: 'x'.repeat(64), action: 'disable_totp', reason: 'invalid_totp_code', at },
      }));
});
