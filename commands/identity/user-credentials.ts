import type { UserCredentialsEvent } from '../../events/identity.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { assertStrongPassword } from './password-policy.ts';

/**
 * Checks that need secrets or slow hashing happen before the decider and arrive as results:
 * `current_password_verified` (scrypt against the stored hash) and `matched_step` (the time step
 * `verifyTotp` matched, null for a wrong code). `new_password` is the plaintext only so the
 * decider itself enforces the policy; it never goes into an event. Likewise EnrolTotp's `secret`:
 * the decider checks its strength, and only `secret_ciphertext` (its seal) is stored.
 */
type UserCredentialsCommand =
  | { type: 'ChangePassword'; user_id: string; current_password_verified: boolean; new_password: string; new_password_hash: string; at: string }
  | { type: 'EnrolTotp'; user_id: string; secret: string; secret_ciphertext: string; at: string }
  | { type: 'ConfirmTotp'; user_id: string; matched_step: number | null; at: string }
  | { type: 'DisableTotp'; user_id: string; matched_step: number | null; at: string }
  /** the second step of a TOTP login */
  | { type: 'UseTotpCode'; user_id: string; matched_step: number | null; at: string };

/**
 * The TOTP secret as the stream keeps it: sealed (TotpSecretIssued), or in plaintext from an
 * enrolment stored before secrets were sealed and never rewritten (an EventStoreDB log).
 */
export type KeptTotpSecret = { sealed: string } | { plaintext: string };

export interface UserCredentialsState {
  /** latest hash from PasswordChanged; null while the one UserAdded carried is current */
  password_hash: string | null;
  totp: { status: 'none' } | { status: 'pending' | 'enabled'; secret: KeptTotpSecret };
  /** highest time step ever accepted: a code of that step or earlier is a replay */
  last_totp_step: number | null;
}

/** 401 as the spec's `invalid_credentials`, though the caller is signed in: clients branch on the code, not the status. */
const invalidCredentials = () => new DomainError('invalid_credentials', 'the current password is wrong');
const invalidCode = (message = 'the authenticator code is wrong') => new DomainError('invalid_totp_code', message);

/** Base32 of at least 160 bits (RFC 4226's recommended secret length). */
const TOTP_SECRET = /^[A-Z2-7]{32,}$/;
/** The secret box's sealed form (`v1.<iv>.<tag>.<ciphertext>`, base64url), which base32 never is. */
const SEALED = /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/;

/** The accepted step, or the refusal: a wrong code, or one already used (same or earlier step). */
function acceptedStep(matched: number | null, state: UserCredentialsState): number {
  if (matched === null) throw invalidCode();
  if (state.last_totp_step !== null && matched <= state.last_totp_step) throw invalidCode('the authenticator code was already used');
  return matched;
}

export const userCredentialsDecider: Decider<UserCredentialsCommand, UserCredentialsEvent, UserCredentialsState> = {
  initialState: { password_hash: null, totp: { status: 'none' }, last_totp_step: null },
  decide(command, state) {
    const { user_id, at } = command;
    switch (command.type) {
      case 'ChangePassword':
        if (!command.current_password_verified) throw invalidCredentials();
        assertStrongPassword(command.new_password);
        // guards the one mistake that would write a password into the log
        if (!command.new_password_hash.startsWith('scrypt$')) throw new Error('new_password_hash must be a scrypt hash');
        return [{ type: 'PasswordChanged', data: { user_id, password_hash: command.new_password_hash, changed_at: at } }];
      case 'EnrolTotp':
        if (state.totp.status === 'enabled') throw new DomainError('totp_already_enabled', 'two-factor authentication is already enabled');
        if (!TOTP_SECRET.test(command.secret)) throw new Error('a TOTP secret must be base32 of at least 160 bits');
        // guards the one mistake that would write the secret into the log
        if (!SEALED.test(command.secret_ciphertext) || command.secret_ciphertext.includes(command.secret)) throw new Error('secret_ciphertext must be the sealed secret');
        // enrolling again while pending replaces the secret: the user may have lost the QR code
        return [{ type: 'TotpSecretIssued', data: { user_id, secret_ciphertext: command.secret_ciphertext, issued_at: at } }];
      case 'ConfirmTotp':
        if (state.totp.status !== 'pending') throw new DomainError('totp_not_pending', 'no two-factor enrolment is waiting for confirmation');
        return [{ type: 'TotpEnabled', data: { user_id, step: acceptedStep(command.matched_step, state), enabled_at: at } }];
      case 'DisableTotp':
        if (state.totp.status !== 'enabled') throw new DomainError('totp_not_enabled', 'two-factor authentication is not enabled');
        return [{ type: 'TotpDisabled', data: { user_id, step: acceptedStep(command.matched_step, state), disabled_at: at } }];
      case 'UseTotpCode':
        if (state.totp.status !== 'enabled') throw new DomainError('totp_not_enabled', 'two-factor authentication is not enabled');
        return [{ type: 'TotpCodeUsed', data: { user_id, step: acceptedStep(command.matched_step, state), used_at: at } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'PasswordChanged':
        return { ...state, password_hash: event.data.password_hash };
      case 'TotpEnrolmentStarted':
        return { ...state, totp: { status: 'pending', secret: { plaintext: event.data.secret } } };
      case 'TotpSecretIssued':
        return { ...state, totp: { status: 'pending', secret: { sealed: event.data.secret_ciphertext } } };
      case 'TotpEnabled':
        return state.totp.status === 'none' ? state : { ...state, totp: { status: 'enabled', secret: state.totp.secret }, last_totp_step: event.data.step };
      case 'TotpDisabled':
        return { ...state, totp: { status: 'none' }, last_totp_step: event.data.step };
      case 'TotpCodeUsed':
        return { ...state, last_totp_step: event.data.step };
    }
  },
};
