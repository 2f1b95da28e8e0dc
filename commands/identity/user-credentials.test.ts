import { expect } from 'chai';
import type { UserCredentialsEvent } from '../../events/identity.ts';
import { specFor } from '../shared/given.ts';
import { userCredentialsDecider } from './user-credentials.ts';

const at = '2026-11-22T10:00:00.000Z';
const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
/** a seal's shape (the decider never opens one) */
const sealed = 'v1.bm9uY2Vub25jZW4.dGFnZ2VkdGFnZ2VkdGFnZw.Y2lwaGVydGV4dA';
const hash = 'scrypt$16384$8$1$c2FsdA==$aGFzaA==';

describe('user credentials', () => {
  const given = specFor(userCredentialsDecider);
  const changePassword = (verified: boolean, password = 'Nové-heslo1') =>
    ({ type: 'ChangePassword', user_id: 'u1', current_password_verified: verified, new_password: password, new_password_hash: hash, at }) as const;
  const enrolled: UserCredentialsEvent = { type: 'TotpSecretIssued', data: { user_id: 'u1', secret_ciphertext: sealed, issued_at: at } };
  /** as stored before secrets were sealed (issue 37) */
  const enrolledInPlaintext: UserCredentialsEvent = { type: 'TotpEnrolmentStarted', data: { user_id: 'u1', secret, started_at: at } };
  const enrol = (over: { secret?: string; secret_ciphertext?: string } = {}) => ({ type: 'EnrolTotp', user_id: 'u1', secret, secret_ciphertext: sealed, at, ...over }) as const;
  const enabled: UserCredentialsEvent = { type: 'TotpEnabled', data: { user_id: 'u1', step: 100, enabled_at: at } };

  describe('password', () => {
    it('changes the password, storing only its hash', () => {
      given([]).when(changePassword(true)).then([{ type: 'PasswordChanged', data: { user_id: 'u1', password_hash: hash, changed_at: at } }]);
      const events = userCredentialsDecider.decide(changePassword(true), userCredentialsDecider.initialState);
      expect(JSON.stringify(events)).not.to.contain('Nové-heslo1');
    });
    it('refuses a wrong current password: invalid_credentials', () => given([]).when(changePassword(false)).thenThrows('invalid_credentials'));
    it('refuses a new password that breaks the policy: weak_password', () =>
      given([]).when(changePassword(true, 'password')).thenThrows('weak_password', { unmet: ['uppercase', 'digit', 'special'] }));
    it('refuses to store a hash that is not scrypt', () => {
      expect(() => userCredentialsDecider.decide({ ...changePassword(true), new_password_hash: 'Nové-heslo1' }, userCredentialsDecider.initialState)).to.throw(/scrypt/);
    });
  });

  describe('TOTP', () => {
    it('enrolment is pending until confirmed; the secret is stored only sealed', () => {
      given([]).when(enrol()).then([{ type: 'TotpSecretIssued', data: { user_id: 'u1', secret_ciphertext: sealed, issued_at: at } }]);
      const state = userCredentialsDecider.evolve(userCredentialsDecider.initialState, enrolled);
      expect(state.totp).to.deep.equal({ status: 'pending', secret: { sealed } });
    });
    it('enrolling again while pending replaces the secret', () =>
      given([enrolled]).when(enrol({ secret: 'A'.repeat(32), secret_ciphertext: `${sealed}B` })).then([
        { type: 'TotpSecretIssued', data: { user_id: 'u1', secret_ciphertext: `${sealed}B`, issued_at: at } },
      ]));
    it('refuses enrolment while enabled', () => given([enrolled, enabled]).when(enrol()).thenThrows('totp_already_enabled'));
    it('refuses to store a secret that is not sealed, or a seal that shows it', () => {
      expect(() => userCredentialsDecider.decide(enrol({ secret_ciphertext: secret }), userCredentialsDecider.initialState)).to.throw(/sealed/);
      expect(() => userCredentialsDecider.decide(enrol({ secret_ciphertext: `v1.a.b.${secret}` }), userCredentialsDecider.initialState)).to.throw(/sealed/);
      expect(() => userCredentialsDecider.decide(enrol({ secret: 'tooshort' }), userCredentialsDecider.initialState)).to.throw(/base32/);
    });
    it('an enrolment stored in plaintext before secrets were sealed still folds, and is confirmed as before', () => {
      const state = userCredentialsDecider.evolve(userCredentialsDecider.initialState, enrolledInPlaintext);
      expect(state.totp).to.deep.equal({ status: 'pending', secret: { plaintext: secret } });
      given([enrolledInPlaintext]).when({ type: 'ConfirmTotp', user_id: 'u1', matched_step: 100, at }).then([enabled]);
      expect(userCredentialsDecider.evolve(state, enabled).totp).to.deep.equal({ status: 'enabled', secret: { plaintext: secret } });
    });
    it('a valid code confirms the enrolment', () =>
      given([enrolled]).when({ type: 'ConfirmTotp', user_id: 'u1', matched_step: 100, at }).then([enabled]));
    it('refuses confirming without a pending enrolment: totp_not_pending', () =>
      given([]).when({ type: 'ConfirmTotp', user_id: 'u1', matched_step: 100, at }).thenThrows('totp_not_pending'));
    it('refuses a wrong code: invalid_totp_code', () =>
      given([enrolled]).when({ type: 'ConfirmTotp', user_id: 'u1', matched_step: null, at }).thenThrows('invalid_totp_code'));
    it('a login code of a later step is accepted and remembered', () =>
      given([enrolled, enabled]).when({ type: 'UseTotpCode', user_id: 'u1', matched_step: 101, at }).then([
        { type: 'TotpCodeUsed', data: { user_id: 'u1', step: 101, used_at: at } },
      ]));
    it('refuses a code of a step already used (replay)', () =>
      given([enrolled, enabled]).when({ type: 'UseTotpCode', user_id: 'u1', matched_step: 100, at }).thenThrows('invalid_totp_code'));
    it('refuses a code of an earlier step', () =>
      given([enrolled, enabled]).when({ type: 'UseTotpCode', user_id: 'u1', matched_step: 99, at }).thenThrows('invalid_totp_code'));
    it('refuses a login code when TOTP is not enabled', () =>
      given([enrolled]).when({ type: 'UseTotpCode', user_id: 'u1', matched_step: 101, at }).thenThrows('totp_not_enabled'));
    it('disables with a valid code', () =>
      given([enrolled, enabled]).when({ type: 'DisableTotp', user_id: 'u1', matched_step: 102, at }).then([
        { type: 'TotpDisabled', data: { user_id: 'u1', step: 102, disabled_at: at } },
      ]));
    it('refuses disabling with a wrong code', () =>
      given([enrolled, enabled]).when({ type: 'DisableTotp', user_id: 'u1', matched_step: null, at }).thenThrows('invalid_totp_code'));
    it('refuses disabling when not enabled', () => given([]).when({ type: 'DisableTotp', user_id: 'u1', matched_step: 5, at }).thenThrows('totp_not_enabled'));
    it('after disabling, a new enrolment cannot be confirmed with an already used step', () =>
      given([enrolled, enabled, { type: 'TotpDisabled', data: { user_id: 'u1', step: 102, disabled_at: at } }, enrolled])
        .when({ type: 'ConfirmTotp', user_id: 'u1', matched_step: 102, at })
        .thenThrows('invalid_totp_code'));
  });
});
