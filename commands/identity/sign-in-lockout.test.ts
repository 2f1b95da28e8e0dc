import { expect } from 'chai';
import { SIGN_IN_LOCKOUT, signInLockout, type SignInLockoutFacts } from './sign-in-lockout.ts';

const t0 = Date.parse('2026-11-24T10:00:00.000Z');
const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
const failure = (seconds: number, ip = '192.0.2.1') => ({ ip, at: at(seconds) });

const facts = (changes: Partial<SignInLockoutFacts> = {}): SignInLockoutFacts => ({
  organisation_id: 'o1', user_id: 'u1', email: 'admin@example.sk', scope: 'account', blocked: true, retry_after_seconds: 30,
  failure: failure(100), earlier: [], last_locked_at: null, ...changes,
});

describe('sign-in lock-out (what an organisation is told when wrong tries lock an account out)', () => {
  it('records nothing while the guard still admits tries', () =>
    expect(signInLockout(facts({ blocked: false, earlier: [failure(1), failure(2)] }))).to.equal(null));

  it('records the failure that empties the budget: how many failures, from which addresses, locked until the next try is let through', () =>
    expect(signInLockout(facts({ earlier: [failure(95, '198.51.100.7'), failure(96), failure(97, '198.51.100.7'), failure(98, '2001:db8::9')] }))).to.deep.equal({
      type: 'SignInLockedOut',
      data: {
        organisation_id: 'o1', user_id: 'u1', email: 'admin@example.sk', scope: 'account', failures: 5, ips: ['198.51.100.7', '192.0.2.1', '2001:db8::9'],
        locked_at: at(100), locked_until: at(130),
      },
    }));

  it('names the addresses in the order they first failed, whatever order the failures come in', () =>
    expect(signInLockout(facts({ earlier: [failure(99, '203.0.113.3'), failure(50, '203.0.113.1'), failure(70, '203.0.113.2')] }))?.data.ips)
      .to.deep.equal(['203.0.113.1', '203.0.113.2', '203.0.113.3', '192.0.2.1']));

  it('counts only failures within the window', () => {
    const window = SIGN_IN_LOCKOUT.windowSeconds;
    const locked = signInLockout(facts({ failure: failure(window + 100), earlier: [failure(10, '203.0.113.1'), failure(window + 50, '203.0.113.2')] }));
    expect(locked?.data).to.include({ failures: 2 });
    expect(locked?.data.ips).to.deep.equal(['203.0.113.2', '192.0.2.1']);
  });

  it('is one lock-out while it goes on: none again within the window of the last one recorded, a new one after it', () => {
    const window = SIGN_IN_LOCKOUT.windowSeconds;
    expect(signInLockout(facts({ failure: failure(100), last_locked_at: at(40) }))).to.equal(null);
    expect(signInLockout(facts({ failure: failure(window + 41), last_locked_at: at(40) }))).to.not.equal(null);
  });

  it('names at most 20 addresses, the most recent, each cut to 64 characters', () => {
    const earlier = Array.from({ length: 30 }, (_, i) => failure(i + 1, `198.51.100.${i + 1}`));
    const ips = signInLockout(facts({ earlier, failure: failure(100, 'x'.repeat(100)) }))?.data.ips ?? [];
    expect(ips).to.have.length(SIGN_IN_LOCKOUT.maxAddresses);
    expect(ips[0]).to.equal('198.51.100.12');
    expect(ips.at(-1)).to.equal('x'.repeat(64));
  });

  it('locks a two-factor challenge out the same way, naming its scope', () =>
    expect(signInLockout(facts({ scope: 'two_factor_challenge' }))?.data).to.include({ scope: 'two_factor_challenge', failures: 1 }));
});
