import { expect } from 'chai';
import { eventually } from '../support/poll.ts';
import { sapiError } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { movableClock, requestToken } from './auth-support.ts';

/** docs/sapi.md, Credentials and tokens: 5 wrong secrets within 15 minutes lock the client for 15 minutes. */
describe('SAPI-SK lock-out at POST /sapi/auth/token', function () {
  this.timeout(120_000);
  const clock = movableClock();
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ clock });
  });
  after(async () => svc?.close());

  const install = async () => (await svc.call('POST', `/companies/${svc.demo.companies[0]!.id}/sapi-clients`)).body as { client_id: string; client_secret: string };
  const attempt = (client: { client_id: string }, secret: string) => requestToken(svc, 0, { client_id: client.client_id, client_secret: secret });

  it('locks after the fifth wrong secret within 15 minutes, refuses the correct secret while locked (Retry-After), and admits it after 15 minutes', async () => {
    const client = await install();
    for (let i = 0; i < 4; i++) {
      const wrong = await attempt(client, 'wrong');
      expect(sapiError(wrong).code, `attempt ${i + 1}`).to.equal('SAPI-AUTH-001');
      clock.advance(60);
    }
    const fifth = await attempt(client, 'wrong');
    expect(fifth.status).to.equal(403);
    expect(sapiError(fifth)).to.include({ code: 'SAPI-AUTH-LOCKED', category: 'AUTH', retryable: false });
    expect(fifth.headers.get('retry-after')).to.equal('900');

    clock.advance(600);
    const correct = await attempt(client, client.client_secret);
    expect(sapiError(correct).code).to.equal('SAPI-AUTH-LOCKED');
    expect(Number(correct.headers.get('retry-after'))).to.be.within(299, 300);
    // the lock is decided on the stream; the admin view shows it once its read model catches up
    const shown = await eventually(() => svc.call('GET', `/sapi-clients/${client.client_id}`), (r) => r.body.locked_until !== null);
    expect(Date.parse(shown.body.locked_until)).to.be.greaterThan(clock.now().getTime());

    clock.advance(300);
    expect((await attempt(client, client.client_secret)).status).to.equal(200);
    // the count starts afresh after a lock
    expect(sapiError(await attempt(client, 'wrong')).code).to.equal('SAPI-AUTH-001');
  });

  it('counts only failures within the last 15 minutes', async () => {
    const client = await install();
    for (let i = 0; i < 4; i++) await attempt(client, 'wrong');
    clock.advance(15 * 60 + 1);
    expect(sapiError(await attempt(client, 'wrong')).code).to.equal('SAPI-AUTH-001');
    expect((await attempt(client, client.client_secret)).status).to.equal(200);
  });

  it('locks one client only: another client of the same company is not affected', async () => {
    const locked = await install();
    const other = await install();
    for (let i = 0; i < 5; i++) await attempt(locked, 'wrong');
    expect(sapiError(await attempt(locked, locked.client_secret)).code).to.equal('SAPI-AUTH-LOCKED');
    expect((await attempt(other, other.client_secret)).status).to.equal(200);
  });

  it('never locks an unknown client_id (there is nothing to lock): every attempt is SAPI-AUTH-001', async () => {
    for (let i = 0; i < 8; i++) {
      expect(sapiError(await attempt({ client_id: 'sapi_00000000000000000000000000000000' }, 'wrong')).code).to.equal('SAPI-AUTH-001');
    }
  });

  it('does not count refusals that are not a failed credential check (an unknown scope, a malformed body)', async () => {
    const client = await install();
    for (let i = 0; i < 6; i++) {
      expect(sapiError(await requestToken(svc, 0, { client_id: client.client_id, client_secret: 'wrong', scope: 'document:everything' })).code).to.equal('SAPI-VAL-SCOPE');
      expect(sapiError(await requestToken(svc, 0, { client_id: client.client_id, client_secret: 'wrong', grant_type: 'password' })).code).to.equal('SAPI-VAL-001');
    }
    expect((await attempt(client, client.client_secret)).status).to.equal(200);
  });

  it('decides the lock on the client\'s event stream: 12 parallel wrong secrets lock it exactly once', async () => {
    const client = await install();
    const answers = await Promise.all(Array.from({ length: 12 }, () => attempt(client, 'wrong')));
    const codes = answers.map((a) => sapiError(a).code);
    expect(codes.filter((c) => c === 'SAPI-AUTH-001')).to.have.length(4);
    expect(codes.filter((c) => c === 'SAPI-AUTH-LOCKED')).to.have.length(8);
    const events = await svc.services.store.readStream(`sapi_client-${client.client_id}`);
    expect(events.filter((e) => e.type === 'SapiClientLockedOut')).to.have.length(1);
    expect(events.filter((e) => e.type === 'SapiClientAuthenticationFailed')).to.have.length(5);
  });
});
