import type { CredentialCheckFailed, LoginFailed, LoginFailureReason, LoginSucceeded } from '../../events/identity.ts';

/**
 * Login attempts are facts, not decisions: nothing can refuse recording one, so these are values
 * rather than a decider. The e-mail is whatever was typed, so it is normalised and capped: an
 * attacker must not be able to flood the security log with megabytes per attempt.
 */
const EMAIL_MAX = 320;
const IP_MAX = 64;

const normalisedEmail = (email: string) => email.trim().toLowerCase().slice(0, EMAIL_MAX);

export function loginFailed(attempt: {
  email: string;
  organisation_id: string | null;
  user_id: string | null;
  ip: string;
  reason: LoginFailureReason;
  at: string;
}): LoginFailed {
  return { type: 'LoginFailed', data: { ...attempt, email: normalisedEmail(attempt.email), ip: attempt.ip.slice(0, IP_MAX) } };
}

export function loginSucceeded(attempt: {
  email: string;
  organisation_id: string;
  user_id: string;
  ip: string;
  method: LoginSucceeded['data']['method'];
  at: string;
}): LoginSucceeded {
  return { type: 'LoginSucceeded', data: { ...attempt, email: normalisedEmail(attempt.email), ip: attempt.ip.slice(0, IP_MAX) } };
}

/** A wrong current password or code on a signed-in user's credential change (the e-mail is the user's own). */
export function credentialCheckFailed(attempt: CredentialCheckFailed['data']): CredentialCheckFailed {
  return { type: 'CredentialCheckFailed', data: { ...attempt, email: normalisedEmail(attempt.email), ip: attempt.ip.slice(0, IP_MAX) } };
}
