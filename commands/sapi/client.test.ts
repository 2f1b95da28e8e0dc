import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { SapiClientStreamEvent, SapiTokenFamilyEvent } from '../../events/sapi-clients.ts';
import { fold } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { specFor } from '../shared/given.ts';
import { allowedAddress, canonicalAllowlist } from './client-allowlist.ts';
import { SAPI_LOCKOUT } from './client-lockout.ts';
import { assertAuthenticated, sapiClientDecider, type SapiClientCommand } from './client.ts';
import { SapiRefusal } from './errors.ts';
import { assertRenewed, sapiTokenFamilyDecider } from './token-family.ts';

const t0 = Date.parse('2026-11-24T10:00:00.000Z');
const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
const issued = {
  type: 'SapiClientIssued', data: { client_id: 'c1', organisation_id: 'o1', company_id: 'k1', participant_id: '9950:sk2022131705svctest', secret_hash: 'a'.repeat(64), issued_at: at(0) },
} as const satisfies SapiClientStreamEvent;
const failed = (s: number, ip = '192.0.2.1'): SapiClientStreamEvent => ({ type: 'SapiClientAuthenticationFailed', data: { client_id: 'c1', ip, failed_at: at(s) } });
const lockedOut = (s: number, ips: string[], failures = 5): SapiClientStreamEvent => ({
  type: 'SapiClientLockedOut',
  data: { client_id: 'c1', organisation_id: 'o1', company_id: 'k1', failures, ips, locked_at: at(s), locked_until: at(s + SAPI_LOCKOUT.lockSeconds) },
});
const authenticate = (s: number, secret_matches: boolean, ip = '192.0.2.1'): SapiClientCommand => ({ type: 'AuthenticateSapiClient', client_id: 'c1', secret_matches, ip, at: at(s) });
const sapiCode = (code: string, retryAfter?: number) => (e: SapiRefusal) => {
  expect(e.sapiCode).to.equal(code);
  if (retryAfter !== undefined) expect(e.retryAfterSeconds).to.equal(retryAfter);
};

describe('SAPI-SK client', () => {
  const given = specFor(sapiClientDecider);

  describe('lock-out (5 wrong secrets within 15 minutes lock for 15 minutes)', () => {
    it('records a wrong secret, and the fifth within the window also locks the client', () => {
      given([issued]).when(authenticate(10, false)).then([failed(10)]);
      const four = [issued, failed(1), failed(2), failed(3), failed(4)];
      given(four).when(authenticate(600, false)).then([failed(600), lockedOut(600, ['192.0.2.1'])]);
    });

    it('names the organisation and company to tell, and every address whose failures locked it, each once, in the order they first failed', () => {
      const history = [issued, failed(1, '198.51.100.7'), failed(2, '192.0.2.1'), failed(3, '198.51.100.7'), failed(4, '2001:db8::5')];
      given(history).when(authenticate(5, false, '192.0.2.1')).then([failed(5), lockedOut(5, ['198.51.100.7', '192.0.2.1', '2001:db8::5'])]);
    });

    it('names only the addresses of failures inside the window, and none of those before the last lock', () => {
      const old = [issued, failed(0, '203.0.113.1'), failed(1, '203.0.113.2')];
      const recent = [failed(15 * 60 + 10, '192.0.2.9'), failed(15 * 60 + 11), failed(15 * 60 + 12), failed(15 * 60 + 13)];
      given([...old, ...recent]).when(authenticate(15 * 60 + 14, false)).then([failed(15 * 60 + 14), lockedOut(15 * 60 + 14, ['192.0.2.9', '192.0.2.1'])]);
      const relocked = [issued, failed(1, '203.0.113.1'), failed(2), failed(3), failed(4), failed(5), lockedOut(5, ['203.0.113.1', '192.0.2.1'])];
      const after = [failed(1000, '198.51.100.1'), failed(1001), failed(1002), failed(1003)];
      given([...relocked, ...after]).when(authenticate(1004, false)).then([failed(1004), lockedOut(1004, ['198.51.100.1', '192.0.2.1'])]);
    });

    it('forgets failures older than the window', () =>
      given([issued, failed(0), failed(1), failed(2), failed(3)]).when(authenticate(15 * 60 + 1, false)).then([failed(15 * 60 + 1)]));

    it('refuses a locked client even with the correct secret, with the seconds left', () => {
      const locked = { type: 'SapiClientLocked', data: { client_id: 'c1', failures: 5, locked_at: at(100), locked_until: at(1000) } } as const;
      given([issued, locked]).when(authenticate(400, true)).thenThrows(SapiRefusal, sapiCode('SAPI-AUTH-LOCKED', 600));
      given([issued, locked]).when(authenticate(400, false)).thenThrows(SapiRefusal, sapiCode('SAPI-AUTH-LOCKED', 600));
    });

    it('admits the correct secret once the lock is over, and counts afresh after it', () => {
      const locked = { type: 'SapiClientLocked', data: { client_id: 'c1', failures: 5, locked_at: at(100), locked_until: at(1000) } } as const;
      const history = [issued, failed(96), failed(97), failed(98), failed(99), failed(100), locked];
      given(history).when(authenticate(1000, true)).thenNothingHappened();
      given(history).when(authenticate(1001, false)).then([failed(1001)]);
    });

    it('cannot lock an unknown client: it is refused as bad credentials and nothing is written', () =>
      given([]).when(authenticate(0, false)).thenThrows(SapiRefusal, sapiCode('SAPI-AUTH-001')));

    it('does not count a request from outside the allowlist (nobody outside can lock the client out)', () => {
      const allow: SapiClientStreamEvent = { type: 'SapiClientAllowlistSet', data: { client_id: 'c1', cidrs: ['203.0.113.0/24'], set_at: at(0) } };
      given([issued, allow]).when(authenticate(5, false, '198.51.100.1')).thenThrows(SapiRefusal, sapiCode('SAPI-AUTH-IP'));
      given([issued, allow]).when(authenticate(5, true, '203.0.113.9')).thenNothingHappened();
      // four failures from inside: a fifth from outside neither counts nor locks, a fifth from inside does
      const four = [issued, allow, failed(1, '203.0.113.9'), failed(2, '203.0.113.9'), failed(3, '203.0.113.9'), failed(4, '203.0.113.9')];
      given(four).when(authenticate(5, false, '198.51.100.1')).thenThrows(SapiRefusal, sapiCode('SAPI-AUTH-IP'));
      given(four).when(authenticate(5, false, '203.0.113.10')).then([failed(5, '203.0.113.10'), lockedOut(5, ['203.0.113.9', '203.0.113.10'])]);
    });

    it('answers the locking failure as SAPI-AUTH-LOCKED and any other failure as SAPI-AUTH-001', () => {
      expect(() => assertAuthenticated([failed(1)])).to.throw(SapiRefusal).with.property('code', 'SAPI-AUTH-001');
      expect(() => assertAuthenticated([failed(1), lockedOut(1, ['192.0.2.1'])])).to.throw(SapiRefusal).with.property('code', 'SAPI-AUTH-LOCKED');
      expect(() => assertAuthenticated([])).to.not.throw();
    });
  });

  it('refuses a disabled client only once its secret is right (SAPI-DISABLED), and enables it again', () => {
    const disabled = { type: 'SapiClientDisabled', data: { client_id: 'c1', disabled_at: at(1) } } as const;
    given([issued, disabled]).when(authenticate(5, true)).thenThrows(SapiRefusal, sapiCode('SAPI-DISABLED'));
    given([issued, disabled]).when(authenticate(5, false)).then([failed(5)]);
    given([issued, disabled]).when({ type: 'DisableSapiClient', client_id: 'c1', organisation_id: 'o1', at: at(2) }).thenNothingHappened();
    given([issued, disabled]).when({ type: 'EnableSapiClient', client_id: 'c1', organisation_id: 'o1', at: at(2) })
      .then([{ type: 'SapiClientEnabled', data: { client_id: 'c1', enabled_at: at(2) } }]);
  });

  it('treats another organisation\'s client as not found', () => {
    const commands: SapiClientCommand[] = [
      { type: 'DisableSapiClient', client_id: 'c1', organisation_id: 'o2', at: at(1) },
      { type: 'RotateSapiClientSecret', client_id: 'c1', organisation_id: 'o2', secret_hash: 'b'.repeat(64), at: at(1) },
      { type: 'SetSapiClientAllowlist', client_id: 'c1', organisation_id: 'o2', cidrs: [], at: at(1) },
    ];
    for (const command of commands) given([issued]).when(command).thenThrows('sapi_client_not_found');
  });

  it('sets the same allowlist again without an event', () =>
    given([issued]).when({ type: 'SetSapiClientAllowlist', client_id: 'c1', organisation_id: 'o1', cidrs: [], at: at(1) }).thenNothingHappened());

  describe('snapshots (the stream grows by every failed attempt, so its state is kept every 100 events)', () => {
    it('its state is plain JSON: a snapshot taken anywhere in a history folds on to the same state', () => {
      const history: SapiClientStreamEvent[] = [
        issued, failed(1), failed(2),
        { type: 'SapiClientSecretRotated', data: { client_id: 'c1', secret_hash: 'b'.repeat(64), rotated_at: at(3) } },
        { type: 'SapiClientAllowlistSet', data: { client_id: 'c1', cidrs: ['203.0.113.0/24'], set_at: at(4) } },
        failed(5), failed(6), failed(7),
        { type: 'SapiClientLocked', data: { client_id: 'c1', failures: 5, locked_at: at(7), locked_until: at(907) } },
        { type: 'SapiClientDisabled', data: { client_id: 'c1', disabled_at: at(8) } },
        { type: 'SapiClientEnabled', data: { client_id: 'c1', enabled_at: at(9) } },
        failed(2000, '198.51.100.3'), failed(2001), failed(2002), failed(2003), failed(2004), lockedOut(2004, ['198.51.100.3', '192.0.2.1']),
        failed(4000),
      ];
      const whole = fold(sapiClientDecider, history);
      for (let cut = 0; cut <= history.length; cut++) {
        const kept = JSON.parse(JSON.stringify(fold(sapiClientDecider, history.slice(0, cut)))) as typeof whole;
        expect(history.slice(cut).reduce(sapiClientDecider.evolve, kept), `snapshot after ${cut} events`).to.deep.equal(whole);
      }
      // version 2: the state keeps each failure's address (a version-1 snapshot is folded again from the stream)
      expect(sapiClientDecider.snapshot).to.deep.equal({ version: 2, every: 100 });
    });
  });

  describe('allowlist', () => {
    it('keeps CIDRs and addresses in canonical form, each once', () =>
      expect(canonicalAllowlist(['10.1.2.3/8', '192.0.2.7', '2001:DB8::1/32', '10.0.0.0/8'])).to.deep.equal(['10.0.0.0/8', '192.0.2.7/32', '2001:db8::/32']));

    it('refuses what is not an address or CIDR, naming each entry', () => {
      expect(() => canonicalAllowlist(['10.0.0.0/8', '10.0.0.0/33', 'example.com', '1.2.3'])).to.throw(InvalidFields)
        .with.property('problems').that.satisfies((p: { loc: unknown[] }[]) => JSON.stringify(p.map((x) => x.loc)) === JSON.stringify([['body', 'cidrs', 1], ['body', 'cidrs', 2], ['body', 'cidrs', 3]]));
    });

    it('allows any address when empty, and an IPv4-mapped IPv6 peer as its IPv4', () => {
      expect(allowedAddress([], 'whatever')).to.equal(true);
      expect(allowedAddress(['203.0.113.0/24'], '::ffff:203.0.113.5')).to.equal(true);
      expect(allowedAddress(['203.0.113.0/24'], '203.0.114.5')).to.equal(false);
      expect(allowedAddress(['2001:db8::/32'], '2001:db8:1::1')).to.equal(true);
      expect(allowedAddress(['2001:db8::/32'], '203.0.113.5')).to.equal(false);
    });
  });
});

describe('SAPI-SK token family', () => {
  const given = specFor(sapiTokenFamilyDecider);
  const started = {
    type: 'SapiTokenFamilyStarted',
    data: { family_id: 'f1', client_id: 'c1', organisation_id: 'o1', scopes: ['document:send'], refresh_hash: 'h1', refresh_expires_at: at(30 * 86400), started_at: at(0) },
  } as const satisfies SapiTokenFamilyEvent;
  const renewed = { type: 'SapiTokenRenewed', data: { family_id: 'f1', client_id: 'c1', refresh_hash: 'h2', refresh_expires_at: at(30 * 86400 + 10), renewed_at: at(10) } } as const;
  const renew = (hash: string, s: number, rotated: string | null = null) =>
    ({ type: 'RenewSapiToken', presented_hash: hash, new_hash: 'h3', new_expires_at: at(s + 30 * 86400), secret_rotated_at: rotated, at: at(s) }) as const;

  it('renews with the current refresh token', () =>
    given([started, renewed]).when(renew('h2', 20)).then([{ type: 'SapiTokenRenewed', data: { family_id: 'f1', client_id: 'c1', refresh_hash: 'h3', refresh_expires_at: at(20 + 30 * 86400), renewed_at: at(20) } }]));

  it('revokes the family when a used refresh token comes back, and the handler then refuses', () => {
    given([started, renewed]).when(renew('h1', 20)).then([{ type: 'SapiTokenFamilyRevoked', data: { family_id: 'f1', client_id: 'c1', reason: 'refresh_token_reuse', revoked_at: at(20) } }]);
    expect(() => assertRenewed([{ type: 'SapiTokenFamilyRevoked', data: { family_id: 'f1', client_id: 'c1', reason: 'refresh_token_reuse', revoked_at: at(20) } }])).to.throw(SapiRefusal);
  });

  it('refuses an unknown hash, an expired token, a revoked family, and a family from before a secret rotation', () => {
    const refused = (e: SapiRefusal) => expect(e.sapiCode).to.equal('SAPI-AUTH-001');
    given([started]).when(renew('nope', 5)).thenThrows(SapiRefusal, refused);
    given([started]).when(renew('h1', 30 * 86400)).thenThrows(SapiRefusal, refused);
    given([started, { type: 'SapiTokenFamilyRevoked', data: { family_id: 'f1', client_id: 'c1', reason: 'revoked', revoked_at: at(1) } }]).when(renew('h1', 5)).thenThrows(SapiRefusal, refused);
    given([started]).when(renew('h1', 5, at(1))).thenThrows(SapiRefusal, refused);
    given([]).when(renew('h1', 5)).thenThrows(SapiRefusal, refused);
  });

  it('revokes by any of its refresh tokens, once; a refresh token not its own revokes nothing', () => {
    const revoke = (hash?: string) => ({ type: 'RevokeSapiTokenFamily', family_id: 'f1', client_id: 'c1', presented_hash: hash, at: at(30) }) as const;
    const revokedEvent = { type: 'SapiTokenFamilyRevoked', data: { family_id: 'f1', client_id: 'c1', reason: 'revoked', revoked_at: at(30) } } as const;
    given([started, renewed]).when(revoke('h1')).then([revokedEvent]);
    given([started, renewed]).when(revoke('h2')).then([revokedEvent]);
    given([started, renewed]).when(revoke('other')).thenNothingHappened();
    given([started, renewed, revokedEvent]).when(revoke('h2')).thenNothingHappened();
    given([]).when(revoke('h1')).thenNothingHappened();
  });

  it('revokes by a verified access token even a family that has no stream yet', () =>
    given([]).when({ type: 'RevokeSapiTokenFamily', family_id: 'f9', client_id: 'c1', at: at(1) })
      .then([{ type: 'SapiTokenFamilyRevoked', data: { family_id: 'f9', client_id: 'c1', reason: 'revoked', revoked_at: at(1) } }]));
});

describe('SAPI-SK stored events (fixtures) fold', () => {
  const fixture = <E>(type: string): E => {
    const f = JSON.parse(readFileSync(new URL(`../../test/fixtures/events/${type}.v1.json`, import.meta.url), 'utf8')) as { type: string; data: unknown };
    return { type: f.type, data: f.data } as E;
  };
  it('a client stream: issued, rotated, allowlist, disabled, enabled, a failure, locked (before and since issue 37)', () => {
    const types = ['SapiClientIssued', 'SapiClientSecretRotated', 'SapiClientAllowlistSet', 'SapiClientDisabled', 'SapiClientEnabled', 'SapiClientAuthenticationFailed'];
    const state = fold(sapiClientDecider, [...types, 'SapiClientLocked'].map((t) => fixture<SapiClientStreamEvent>(t)));
    expect(state).to.deep.include({ status: 'active', enabled: true, cidrs: ['203.0.113.0/24', '2001:db8::/32'], secret_rotated_at: '2026-11-24T15:01:00.000Z' });
    expect(state.status === 'active' && state.lockout.lockedUntil).to.equal(Date.parse('2026-11-24T15:21:00.000Z'));
    const since = fold(sapiClientDecider, [...types, 'SapiClientLockedOut'].map((t) => fixture<SapiClientStreamEvent>(t)));
    expect(since.status === 'active' && since.lockout).to.deep.equal({ failures: [], lockedUntil: Date.parse('2026-11-24T15:21:00.000Z') });
  });
  it('a token family: started, renewed, revoked', () => {
    const state = fold(sapiTokenFamilyDecider, ['SapiTokenFamilyStarted', 'SapiTokenRenewed', 'SapiTokenFamilyRevoked'].map((t) => fixture<SapiTokenFamilyEvent>(t)));
    expect(state.status).to.equal('revoked');
    expect(() => sapiTokenFamilyDecider.decide({ type: 'RenewSapiToken', presented_hash: 'x', new_hash: 'y', new_expires_at: at(1), secret_rotated_at: null, at: at(0) }, state)).to.throw(DomainError);
  });
});
