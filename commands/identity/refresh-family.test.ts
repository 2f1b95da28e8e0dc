import { expect } from 'chai';
import type { RefreshFamilyEvent } from '../../events/identity.ts';
import { fold } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { specFor } from '../shared/given.ts';
import { assertRotated, refreshFamilyDecider, type RefreshFamilyCommand } from './refresh-family.ts';

const at = '2026-11-22T10:00:00.000Z';
const later = '2026-11-22T10:20:00.000Z';
const in30Days = '2026-12-22T10:00:00.000Z';
const h = (c: string) => c.repeat(64);

describe('refresh token family', () => {
  const given = specFor(refreshFamilyDecider);
  const started: RefreshFamilyEvent = {
    type: 'RefreshFamilyStarted',
    data: { family_id: 'f1', user_id: 'u1', organisation_id: 'o1', token_hash: h('a'), expires_at: in30Days, started_at: at },
  };
  const rotatedToB: RefreshFamilyEvent = { type: 'RefreshTokenRotated', data: { family_id: 'f1', token_hash: h('b'), expires_at: in30Days, rotated_at: at } };
  const rotate = (presented: string, when = later): RefreshFamilyCommand => ({
    type: 'Rotate', presented_hash: presented, new_token_hash: h('c'), new_expires_at: '2026-12-22T10:20:00.000Z', at: when,
  });
  const revokedFor = (reason: 'reuse_detected' | 'logout', when = later): RefreshFamilyEvent => ({
    type: 'RefreshFamilyRevoked', data: { family_id: 'f1', user_id: 'u1', organisation_id: 'o1', reason, revoked_at: when },
  });

  it('starts a family once', () =>
    given([started])
      .when({ type: 'StartFamily', family_id: 'f1', user_id: 'u1', organisation_id: 'o1', token_hash: h('a'), expires_at: in30Days, at })
      .thenThrows('refresh_family_exists'));

  it('rotating with the current token issues the new one', () =>
    given([started]).when(rotate(h('a'))).then([
      { type: 'RefreshTokenRotated', data: { family_id: 'f1', token_hash: h('c'), expires_at: '2026-12-22T10:20:00.000Z', rotated_at: later } },
    ]));

  it('the rotated-out token becomes used: presenting it again revokes the whole family', () =>
    given([started, rotatedToB]).when(rotate(h('a'))).then([revokedFor('reuse_detected')]));

  it('reuse is refused with 401 invalid_refresh_token after the revocation is appended', () => {
    const events = refreshFamilyDecider.decide(rotate(h('a')), fold(refreshFamilyDecider, [started, rotatedToB]));
    expect(() => assertRotated(events)).to.throw(DomainError).with.property('code', 'invalid_refresh_token');
    expect(() => assertRotated(events)).to.throw(DomainError).with.property('code', 'invalid_refresh_token');
  });

  it('after reuse even the newest token is refused', () =>
    given([started, rotatedToB, revokedFor('reuse_detected')]).when(rotate(h('b'))).thenThrows('invalid_refresh_token'));

  it('a rotation passes assertRotated with the new hash and expiry', () => {
    const events = refreshFamilyDecider.decide(rotate(h('b')), fold(refreshFamilyDecider, [started, rotatedToB]));
    expect(assertRotated(events)).to.include({ token_hash: h('c'), expires_at: '2026-12-22T10:20:00.000Z' });
  });

  it('refuses an expired family with 401', () => {
    given([started]).when(rotate(h('a'), in30Days)).thenThrows('invalid_refresh_token');
  });

  it('refuses a revoked family', () => given([started, revokedFor('logout')]).when(rotate(h('a'))).thenThrows('invalid_refresh_token'));

  it('refuses an unknown hash without revoking the family', () => given([started]).when(rotate(h('9'))).thenThrows('invalid_refresh_token'));

  it('refuses a family that never started', () => given([]).when(rotate(h('a'))).thenThrows('invalid_refresh_token'));

  it('logs out with the current token', () =>
    given([started]).when({ type: 'Revoke', reason: 'logout', presented_hash: h('a'), at: later }).then([revokedFor('logout')]));

  it('logging out with a rotated-out token is recorded as reuse', () =>
    given([started, rotatedToB]).when({ type: 'Revoke', reason: 'logout', presented_hash: h('a'), at: later }).then([revokedFor('reuse_detected')]));

  it('refuses to log out with a token the family never issued', () =>
    given([started]).when({ type: 'Revoke', reason: 'logout', presented_hash: h('9'), at: later }).thenThrows('invalid_refresh_token'));

  it('revoking twice changes nothing', () =>
    given([started, revokedFor('logout')]).when({ type: 'Revoke', reason: 'password_changed', at: later }).then([]));
});
