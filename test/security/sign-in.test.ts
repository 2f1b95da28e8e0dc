import { expect } from 'chai';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { addUser, systemMetadata } from '../../src/modules/tenancy/tenancy.ts';
import { totpCode } from '../../src/modules/identity/totp.ts';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('sign-in, sessions and roles over HTTP', function () {
  this.timeout(120_000);
  let svc: TestService;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${svc.api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
  };
  const get = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(`${svc.api}${path}`, { headers });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const admin = () => svc.demo.admin;
  const signIn = async (email = admin().email, password = admin().password) => post('/auth/login', { email, password });

  before(async () => (svc = await startTestService()));
  after(async () => svc?.close());

  it('logs in: an RS256 access token of 900 s, a refresh token, the user; the token works on the API and on /auth/me', async () => {
    const res = await signIn();
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ token_type: 'Bearer', expires_in: 900 });
    expect(res.body.user).to.include({ email: admin().email, is_platform_admin: false });
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const header = JSON.parse(Buffer.from(String(res.body.access_token).split('.')[0] as string, 'base64url').toString());
    expect(header).to.include({ alg: 'RS256' }).and.have.property('kid');
    const jwks = (await (await fetch(`${svc.root}/.well-known/jwks.json`)).json()) as { keys: Json[] };
    expect(jwks.keys.map((k) => k.kid)).to.include(header.kid);
    expect(jwks.keys.every((k) => !('d' in k) && !('p' in k))).to.equal(true);
    expect((await get(`/companies/${svc.demo.companies[0]!.id}/customers`, bearer(res.body.access_token))).status).to.equal(200);
    expect((await get('/auth/me', bearer(res.body.access_token))).body).to.include({ email: admin().email, role: 'admin', two_factor_enabled: false });
  });

  it('refuses a wrong password and an unknown e-mail alike (401 invalid_credentials) and records both; an admin reads them', async () => {
    const wrong = await signIn(admin().email, 'Wrong-pass1!');
    const unknown = await signIn('nobody@example.sk', 'Wrong-pass1!');
    expect([wrong.status, unknown.status]).to.deep.equal([401, 401]);
    expect(wrong.body.detail.error).to.equal('invalid_credentials');
    expect(unknown.body.detail).to.deep.equal(wrong.body.detail);
    let events: Json[] = [];
    for (let i = 0; i < 50 && !events.some((e) => e.detail === 'wrong_password'); i++) {
      events = (await svc.call('GET', '/security-events?page_size=100')).body.items;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(events.find((e) => e.detail === 'wrong_password')).to.include({ type: 'LoginFailed', email: admin().email, ip: '127.0.0.1' });
    expect(events.some((e) => e.email === 'nobody@example.sk')).to.equal(false); // not this organisation's
  });

  it('rotates the pair on refresh; a reused refresh token is refused and ends the whole session', async () => {
    const first = (await signIn()).body;
    const second = await post('/auth/refresh', { refresh_token: first.refresh_token });
    expect(second.status).to.equal(200);
    expect(second.body.refresh_token).to.not.equal(first.refresh_token);
    const third = await post('/auth/refresh', { refresh_token: second.body.refresh_token });
    expect(third.status).to.equal(200);
    const reuse = await post('/auth/refresh', { refresh_token: first.refresh_token });
    expect(reuse.status).to.equal(401);
    expect(reuse.body.detail.error).to.equal('invalid_refresh_token');
    // the family is gone: even the newest token no longer refreshes
    expect((await post('/auth/refresh', { refresh_token: third.body.refresh_token })).status).to.equal(401);
    expect((await post('/auth/refresh', { refresh_token: 'rt_garbage' })).status).to.equal(401);
  });

  it('two refreshes with one token at once: one rotates, the other is 401 (its token is used up), never a 409', async () => {
    const pair = (await signIn()).body;
    const both = await Promise.all([post('/auth/refresh', { refresh_token: pair.refresh_token }), post('/auth/refresh', { refresh_token: pair.refresh_token })]);
    expect(both.map((r) => r.status).sort()).to.deep.equal([200, 401]);
  });

  it('an e-mail names one user across organisations (it is the sign-in name): adding it again elsewhere is 409', async () => {
    const other = await createTestOrganisation(svc.services, 'Team Business');
    let refused: unknown;
    try {
      await addUser(svc.services, { organisationId: other.organisationId, email: admin().email.toUpperCase(), name: 'Twin', role: 'admin', password: 'Twin-pass1!' }, systemMetadata('test'));
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(DomainError).and.include({ code: 'user_exists' });
  });

  it('/auth/* is JWT only: an API key gets 401 jwt_required, also on login', async () => {
    const me = await get('/auth/me', { 'x-api-key': svc.demo.api_key });
    expect(me.status).to.equal(401);
    expect(me.body.detail.error).to.equal('jwt_required');
    const login = await post('/auth/login', { email: admin().email, password: admin().password }, { 'x-api-key': svc.demo.api_key });
    expect(login.body.detail.error).to.equal('jwt_required');
    expect((await get('/auth/me', bearer('svc_not_a_jwt'))).body.detail.error).to.equal('jwt_required');
  });

  it('changes the password under the policy; the old one stops working and other sessions end', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business', ['accountant']);
    const user = org.users.accountant!;
    const session = (await signIn(user.email, user.password)).body;
    const other = (await signIn(user.email, user.password)).body;
    const weak = await post('/auth/password', { current_password: user.password, new_password: 'short' }, bearer(session.access_token));
    expect(weak.status).to.equal(422);
    expect(weak.body.detail).to.include({ error: 'weak_password' });
    const wrongCurrent = await post('/auth/password', { current_password: 'Nope-nope1!', new_password: 'Nove-Heslo-2026!' }, bearer(session.access_token));
    expect(wrongCurrent.body.detail.error).to.equal('invalid_credentials');
    expect((await post('/auth/password', { current_password: user.password, new_password: 'Nove-Heslo-2026!' }, bearer(session.access_token))).status).to.equal(200);
    expect((await signIn(user.email, user.password)).status).to.equal(401);
    expect((await signIn(user.email, 'Nove-Heslo-2026!')).status).to.equal(200);
    expect((await post('/auth/refresh', { refresh_token: other.refresh_token })).status).to.equal(401);
    expect((await post('/auth/refresh', { refresh_token: session.refresh_token })).status).to.equal(200);
  });

  it('two-factor: enrol, confirm with a code, then login needs the second step; a code is accepted once', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business', ['approver']);
    const user = org.users.approver!;
    const session = (await signIn(user.email, user.password)).body;
    const enrol = await post('/auth/2fa/enrol', {}, bearer(session.access_token));
    expect(enrol.status).to.equal(200);
    expect(enrol.body.otpauth_uri).to.match(/^otpauth:\/\/totp\//);
    const secret = String(enrol.body.secret);
    expect((await post('/auth/2fa/confirm', { code: '000000' }, bearer(session.access_token))).status).to.equal(401);
    expect((await post('/auth/2fa/confirm', { code: totpCode(secret) }, bearer(session.access_token))).status).to.equal(200);
    const step1 = await signIn(user.email, user.password);
    expect(step1.body).to.include({ two_factor_required: true });
    expect(step1.body).to.not.have.property('access_token');
    // the code just used to confirm cannot be used again
    const replay = await post('/auth/login/totp', { challenge_token: step1.body.challenge_token, code: totpCode(secret) });
    expect(replay.status).to.equal(401);
    expect(replay.body.detail.error).to.equal('invalid_totp_code');
    const later = totpCode(secret, new Date(Date.now() + 30_000));
    const step2 = await post('/auth/login/totp', { challenge_token: step1.body.challenge_token, code: later });
    expect(step2.status).to.equal(200);
    expect(step2.body).to.have.property('access_token');
    // a challenge is not an access token
    expect((await get('/auth/me', bearer(step1.body.challenge_token))).status).to.equal(401);
  });

  it('the security log shows password and two-factor changes, and the wrong current passwords and codes tried at them', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business', ['admin']);
    const user = org.users.admin!;
    const token = (await signIn(user.email, user.password)).body.access_token as string;
    expect((await post('/auth/password', { current_password: 'Nope-nope1!', new_password: 'Nove-Heslo-2026!' }, bearer(token))).status).to.equal(401);
    expect((await post('/auth/password', { current_password: user.password, new_password: 'Nove-Heslo-2026!' }, bearer(token))).status).to.equal(200);
    const secret = String((await post('/auth/2fa/enrol', {}, bearer(token))).body.secret);
    expect((await post('/auth/2fa/confirm', { code: '000000' }, bearer(token))).status).to.equal(401);
    expect((await post('/auth/2fa/confirm', { code: totpCode(secret) }, bearer(token))).status).to.equal(200);
    expect((await post('/auth/2fa/disable', { code: '000000' }, bearer(token))).status).to.equal(401);
    expect((await post('/auth/2fa/disable', { code: totpCode(secret, new Date(Date.now() + 30_000)) }, bearer(token))).status).to.equal(200);
    const wanted = ['CredentialCheckFailed', 'PasswordChanged', 'CredentialCheckFailed', 'TotpEnabled', 'CredentialCheckFailed', 'TotpDisabled'];
    let events: Json[] = [];
    for (let i = 0; i < 50 && events.length < wanted.length; i++) {
      events = ((await get('/security-events?page_size=100', { 'x-api-key': org.apiKey })).body.items as Json[]).filter((e) => e.type !== 'LoginSucceeded').reverse();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(events.map((e) => e.type)).to.deep.equal(wanted);
    expect(events.map((e) => e.detail)).to.deep.equal(['change_password:wrong_current_password', null, 'confirm_totp:invalid_totp_code', null, 'disable_totp:invalid_totp_code', null]);
    expect(events[0]).to.include({ user_id: user.id, email: user.email, ip: '127.0.0.1' });
    expect(events.every((e) => e.user_id === user.id)).to.equal(true);
  });

  it('roles: an approver reads and sends but may not write an invoice or a customer', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business', ['approver']);
    const approver = (await signIn(org.users.approver!.email, org.users.approver!.password)).body.access_token as string;
    expect((await get(`/companies/${org.companyId}/invoices`, bearer(approver))).status).to.equal(200);
    const invoice = await post(`/companies/${org.companyId}/invoices`, { issue_date: '2026-11-23', lines: [] }, bearer(approver));
    expect(invoice.status).to.equal(403);
    expect(invoice.body.detail).to.deep.include({ error: 'insufficient_role', role: 'approver', required_roles: ['admin', 'accountant'] });
    expect((await post(`/companies/${org.companyId}/customers`, { name: 'X' }, bearer(approver))).status).to.equal(403);
  });

  it('roles: an accountant may write customers but not manage keys or read the security log (403 insufficient_role)', async () => {
    const org = await createTestOrganisation(svc.services, 'Team Business', ['accountant', 'admin']);
    const accountant = (await signIn(org.users.accountant!.email, org.users.accountant!.password)).body.access_token as string;
    const denied = await post('/api-keys', { name: 'mine' }, bearer(accountant));
    expect(denied.status).to.equal(403);
    expect(denied.body.detail).to.include({ error: 'insufficient_role', role: 'accountant' });
    expect((await get('/security-events', bearer(accountant))).status).to.equal(403);
    expect((await post('/oauth2/clients', { name: 'x' }, bearer(accountant))).status).to.equal(403);
    const customer = await post(`/companies/${org.companyId}/customers`, { name: 'Odberateľ s.r.o.', vat_id: 'SK2020273893', ico: '35757442', city: 'Nitra' }, bearer(accountant));
    expect(customer.status).to.equal(201);
    const adminToken = (await signIn(org.users.admin!.email, org.users.admin!.password)).body.access_token as string;
    const created = await post('/api-keys', { name: 'by admin' }, bearer(adminToken));
    expect(created.status).to.equal(201);
    expect(created.body.api_key).to.match(/^svc_/);
  });
});
