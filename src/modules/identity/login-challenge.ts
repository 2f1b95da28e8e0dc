import { InvalidToken } from './invalid-token.ts';
import type { SigningKeyRing } from './signing-keys.ts';

/**
 * Between a correct password and a correct TOTP code the user holds only this. Its own audience
 * and typ mean no access-token check accepts it, and no challenge check accepts an access token.
 */
export const LOGIN_CHALLENGE_AUDIENCE = 'sk-einvoicing:login-challenge';
const LOGIN_CHALLENGE_TYP = 'login-challenge+jwt';
export const LOGIN_CHALLENGE_LIFETIME_SECONDS = 300;

interface LoginChallenge {
  user_id: string;
  organisation_id: string;
  /** unique per challenge: lets the caller count or forbid repeated code attempts on one challenge */
  challenge_id: string;
  expires_at: Date;
}

export async function issueLoginChallenge(ring: SigningKeyRing, user: { user_id: string; organisation_id: string }, now?: Date): Promise<string> {
  return ring.sign({ sub: user.user_id, aud: LOGIN_CHALLENGE_AUDIENCE, org: user.organisation_id }, LOGIN_CHALLENGE_LIFETIME_SECONDS, { typ: LOGIN_CHALLENGE_TYP, now });
}

export async function verifyLoginChallenge(ring: SigningKeyRing, token: string, now?: Date): Promise<LoginChallenge> {
  const { sub, org, jti, exp } = await ring.verify(token, { audience: LOGIN_CHALLENGE_AUDIENCE, typ: LOGIN_CHALLENGE_TYP, now });
  if (typeof sub !== 'string' || typeof org !== 'string' || typeof jti !== 'string' || typeof exp !== 'number') throw new InvalidToken('malformed');
  return { user_id: sub, organisation_id: org, challenge_id: jti, expires_at: new Date(exp * 1000) };
}
