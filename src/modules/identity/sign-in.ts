import { loginFailed, loginSucceeded } from '../../../commands/identity/login-attempts.ts';
import { assertRotated, invalidRefreshToken, refreshFamilyDecider } from '../../../commands/identity/refresh-family.ts';
import { userCredentialsDecider, type UserCredentialsState } from '../../../commands/identity/user-credentials.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import type { LoginFailureReason } from '../../../events/identity.ts';
import { refreshFamilyStream, securityEventStream, userCredentialsStream } from '../../../events/identity.ts';
import { findOrganisationPlan, findUser, findUserByEmail } from '../../../projections/tenancy/queries.ts';
import type { UserRow } from '../../../projections/tenancy/rows.ts';
import { WrongExpectedRevision, type EventMetadata, type Position } from '../../platform/eventstore/port.ts';
import { appendToLog } from '../../platform/handling/append.ts';
import { handleCommand, toNewEvents } from '../../platform/handling/command-handler.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';
import { issueLoginChallenge, verifyLoginChallenge, LOGIN_CHALLENGE_LIFETIME_SECONDS } from './login-challenge.ts';
import { recordSignInLockout } from './lockouts.ts';
import { newRefreshToken, parseRefreshToken, refreshTokenExpiry } from './refresh-tokens.ts';
import type { SigningKeyRing } from './signing-keys.ts';
import type { InvalidCredentialGuard } from '../../platform/limits/invalid-credential-guard.ts';
import { ACCESS_TOKEN_LIFETIME_SECONDS, issueAccessToken } from './tokens.ts';
import { verifyTotp } from './totp.ts';
import { totpSecretInClear, type TotpSecrets } from './totp-secrets.ts';
import type { Core } from '../../platform/core.ts';
import type { Credentials } from './credentials.ts';
import { hashPassword, verifyPassword } from './credential-secrets.ts';
import { systemMetadata } from '../tenancy/index.ts';

/**
 * `attempts` counts failures per account and per two-factor challenge (the invalid-credential
 * guard's buckets: 10 at once, then one more every 30 s), so guessing is slow even from many
 * addresses; the per-address rate limit alone would not stop a distributed guess.
 */
type SignInDeps = Pick<Core, 'store' | 'ids' | 'clock' | 'readModels' | 'projections' | 'config'> & { auth: Credentials } & { ring: SigningKeyRing; attempts: InvalidCredentialGuard; totpSecrets: TotpSecrets };

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  user: { id: string; email: string; name: string; is_platform_admin: boolean };
}
export interface TwoFactorRequired {
  two_factor_required: true;
  challenge_token: string;
  expires_in: number;
}

const invalidCredentials = () => new DomainError('invalid_credentials', 'the e-mail or the password is wrong');

/** 429 with Retry-After once an account or a challenge has had too many wrong tries. */
export async function notLockedOut(deps: Pick<SignInDeps, 'attempts'>, key: string): Promise<void> {
  const { blocked, retryAfterSeconds } = await deps.attempts.check(key);
  if (blocked) throw new DomainError('too_many_attempts', 'too many failed attempts: wait before trying again', { retry_after: retryAfterSeconds });
}
/** One budget of wrong tries per account, whichever door they come through (sign-in or a credential change). */
export const accountKey = (email: string) => `login:${email.trim().toLowerCase()}`;
// a real scrypt hash of a random password: an unknown e-mail costs the same time as a wrong password
let decoy: Promise<string> | undefined;
const decoyHash = () => (decoy ??= hashPassword(`decoy-${Math.random()}`));

/** The user's credentials as their stream says now (no read-model lag: a changed password counts at once). */
export async function currentCredentials(deps: Pick<Core, 'store'>, userId: string): Promise<UserCredentialsState> {
  return (await readAndFold(deps.store, userCredentialsStream(userId), userCredentialsDecider)).state;
}

async function record(deps: SignInDeps, organisationId: string | null, event: ReturnType<typeof loginFailed> | ReturnType<typeof loginSucceeded>) {
  return appendToLog(deps.store, securityEventStream(organisationId), toNewEvents(deps, [event], systemMetadata('sign-in')));
}

type FailedAttempt = { email: string; user: UserRow | null; ip: string; reason: LoginFailureReason; guard: { blocked: boolean; retryAfterSeconds: number } };

/** Logs the failure, then the lock-out it caused if any (an unknown e-mail has no organisation to tell), and refuses. */
async function failed(deps: SignInDeps, attempt: FailedAttempt): Promise<never> {
  const at = deps.clock.now().toISOString();
  const logged = await record(deps, attempt.user?.organisation_id ?? null, loginFailed({
    email: attempt.email, organisation_id: attempt.user?.organisation_id ?? null, user_id: attempt.user?.id ?? null, ip: attempt.ip, reason: attempt.reason, at,
  }));
  if (attempt.user) {
    await recordSignInLockout(deps, {
      user: attempt.user, scope: attempt.reason === 'invalid_totp_code' ? 'two_factor_challenge' : 'account', failure: { ip: attempt.ip, at },
      guard: attempt.guard, logged: logged.position,
    });
  }
  throw attempt.reason === 'invalid_totp_code' ? new DomainError('invalid_totp_code', 'the authenticator code is wrong or was already used') : invalidCredentials();
}

/** A new session: an access token and the first refresh token of a new family. */
async function startSession(deps: SignInDeps, user: UserRow, method: 'password' | 'password_totp', ip: string): Promise<TokenPair> {
  const now = deps.clock.now();
  const familyId = deps.ids.next();
  const refresh = newRefreshToken(familyId);
  await handleCommand(deps, refreshFamilyStream(familyId), refreshFamilyDecider, {
    type: 'StartFamily', family_id: familyId, user_id: user.id, organisation_id: user.organisation_id, token_hash: refresh.hash,
    expires_at: refreshTokenExpiry(now), at: now.toISOString(),
  }, { metadata: userMetadata(user), expected: { newStream: true } });
  await record(deps, user.organisation_id, loginSucceeded({ email: user.email, organisation_id: user.organisation_id, user_id: user.id, ip, method, at: now.toISOString() }));
  return { ...(await accessFor(deps, user, familyId)), refresh_token: refresh.token };
}

async function accessFor(deps: SignInDeps, user: UserRow, sessionId: string): Promise<Omit<TokenPair, 'refresh_token'>> {
  const plan = (await findOrganisationPlan(deps.readModels, user.organisation_id)) ?? 'unknown';
  const access = await issueAccessToken(deps.ring, {
    subject: user.id, organisation_id: user.organisation_id, role: user.role, plan, token_use: 'user', session_id: sessionId,
  }, ACCESS_TOKEN_LIFETIME_SECONDS, deps.clock.now());
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, user: { id: user.id, email: user.email, name: user.name, is_platform_admin: false } };
}

const userMetadata = (user: UserRow): EventMetadata => ({
  causationId: user.id, correlationId: user.id, actor: { type: 'user', id: user.id, organisationId: user.organisation_id },
});

/**
 * POST /auth/login. Every failure is the same 401 `invalid_credentials` (an unknown e-mail costs a
 * decoy scrypt, so timing does not tell them apart) and is recorded as a security event. A user
 * with two-factor authentication gets a 5-minute challenge instead of tokens.
 */
export async function login(deps: SignInDeps, request: { email: string; password: string; ip: string }): Promise<TokenPair | TwoFactorRequired> {
  await notLockedOut(deps, accountKey(request.email));
  const user = await findUserByEmail(deps.readModels, request.email);
  if (!user) {
    await verifyPassword(request.password, await decoyHash());
    const guard = await deps.attempts.failed(accountKey(request.email));
    return failed(deps, { email: request.email, user: null, ip: request.ip, reason: 'unknown_email', guard });
  }
  const credentials = await currentCredentials(deps, user.id);
  if (!(await verifyPassword(request.password, credentials.password_hash ?? user.password_hash))) {
    const guard = await deps.attempts.failed(accountKey(request.email));
    return failed(deps, { email: request.email, user, ip: request.ip, reason: 'wrong_password', guard });
  }
  if (credentials.totp.status === 'enabled') {
    const challenge = await issueLoginChallenge(deps.ring, { user_id: user.id, organisation_id: user.organisation_id }, deps.clock.now());
    return { two_factor_required: true, challenge_token: challenge, expires_in: LOGIN_CHALLENGE_LIFETIME_SECONDS };
  }
  return startSession(deps, user, 'password', request.ip);
}

/** POST /auth/login/totp: the second step. A code is accepted once (its time step is recorded). */
export async function loginWithTotp(deps: SignInDeps, request: { challenge_token: string; code: string; ip: string }): Promise<TokenPair> {
  const invalidChallenge = () => new DomainError('invalid_login_challenge', 'the login challenge is invalid or has expired: sign in with the password again');
  let challenge;
  try {
    challenge = await verifyLoginChallenge(deps.ring, request.challenge_token, deps.clock.now());
  } catch {
    throw invalidChallenge();
  }
  const user = await findUser(deps.readModels, challenge.user_id);
  if (!user) throw invalidChallenge();
  const challengeKey = `totp:${challenge.challenge_id}`;
  await notLockedOut(deps, challengeKey);
  const credentials = await currentCredentials(deps, user.id);
  const matched = credentials.totp.status === 'enabled' ? verifyTotp(await totpSecretInClear(deps.totpSecrets, credentials.totp.secret), request.code, deps.clock.now()) : null;
  try {
    await handleCommand(deps, userCredentialsStream(user.id), userCredentialsDecider, {
      type: 'UseTotpCode', user_id: user.id, matched_step: matched, at: deps.clock.now().toISOString(),
    }, { metadata: userMetadata(user) });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'invalid_totp_code') {
      const guard = await deps.attempts.failed(challengeKey);
      return failed(deps, { email: user.email, user, ip: request.ip, reason: 'invalid_totp_code', guard });
    }
    throw error;
  }
  return startSession(deps, user, 'password_totp', request.ip);
}

/**
 * POST /auth/refresh: rotates the pair. A token that was already rotated out ends the whole
 * session (reuse detection): the revocation is written, then the answer is 401.
 */
export async function refresh(deps: SignInDeps, request: { refresh_token: string }): Promise<TokenPair> {
  const parsed = parseRefreshToken(request.refresh_token);
  if (!parsed) throw invalidRefreshToken();
  const now = deps.clock.now();
  const next = newRefreshToken(parsed.familyId);
  let handled;
  try {
    handled = await handleCommand(deps, refreshFamilyStream(parsed.familyId), refreshFamilyDecider, {
      type: 'Rotate', presented_hash: parsed.hash, new_token_hash: next.hash, new_expires_at: refreshTokenExpiry(now), at: now.toISOString(),
    }, { metadata: systemMetadata('refresh') });
  } catch (error) {
    // two refreshes with one token at once: the other one rotated it, so this token is used up
    if (error instanceof WrongExpectedRevision) throw invalidRefreshToken();
    throw error;
  }
  // a reuse ended the session: its access tokens stop too
  deps.auth.revocations.learnFrom(handled.events);
  assertRotated(handled.events);
  if (handled.state.status === 'none') throw invalidRefreshToken();
  const user = await findUser(deps.readModels, handled.state.user_id);
  if (!user) throw invalidRefreshToken();
  return { ...(await accessFor(deps, user, parsed.familyId)), refresh_token: next.token };
}

/** POST /auth/logout: ends the session of this refresh token, and its access tokens with it. */
export async function logout(deps: SignInDeps, request: { refresh_token: string }): Promise<Position | null> {
  const parsed = parseRefreshToken(request.refresh_token);
  if (!parsed) throw invalidRefreshToken();
  const handled = await handleCommand(deps, refreshFamilyStream(parsed.familyId), refreshFamilyDecider, {
    type: 'Revoke', reason: 'logout', presented_hash: parsed.hash, at: deps.clock.now().toISOString(),
  }, { metadata: systemMetadata('logout') });
  deps.auth.revocations.learnFrom(handled.events);
  return handled.position;
}
