import { Type } from '@sinclair/typebox';
import { PASSWORD_MAX_LENGTH } from '../../../commands/identity/password-policy.ts';
import { ErrorBody } from '../../../schemas/common/index.ts';
import { changePassword, confirmOrDisableTotp, enrolTotp, me } from './account.ts';
import { login, loginWithTotp, logout, refresh } from './sign-in.ts';
import type { Core } from '../../platform/core.ts';
import type { Credentials } from './credentials.ts';
import type { SigningKeys } from './signing-keys.ts';
import type { Limits } from '../../platform/limits/limits.ts';
import type { TotpSecrets } from './totp-secrets.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';

const Email = Type.String({ minLength: 3, maxLength: 320 });
const LoginRequest = Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 1024 }) }, { additionalProperties: false });
const RefreshRequest = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 400 }) }, { additionalProperties: false });
const TotpLogin = Type.Object({ challenge_token: Type.String({ minLength: 1, maxLength: 4096 }), code: Type.String({ pattern: '^[0-9]{6}$' }) }, { additionalProperties: false });
const Code = Type.Object({ code: Type.String({ pattern: '^[0-9]{6}$' }) }, { additionalProperties: false });
const PasswordChange = Type.Object(
  { current_password: Type.String({ minLength: 1, maxLength: 1024 }), new_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH * 4 }) },
  { additionalProperties: false },
);
const User = Type.Object({ id: Type.String(), email: Type.String(), name: Type.String(), is_platform_admin: Type.Boolean() });
const TokenPair = Type.Object(
  { access_token: Type.String(), refresh_token: Type.String(), token_type: Type.Literal('Bearer'), expires_in: Type.Integer({ description: 'seconds (900)' }), user: User },
  {},
);
const TwoFactorRequired = Type.Object(
  { two_factor_required: Type.Literal(true), challenge_token: Type.String({ description: 'send it with a code to POST /auth/login/totp within expires_in seconds' }), expires_in: Type.Integer() },
  {},
);
const Me = Type.Object({
  id: Type.String(), email: Type.String(), name: Type.String(), role: Type.String(), organisation_id: Type.String(), is_platform_admin: Type.Boolean(),
  two_factor_enabled: Type.Boolean(),
});
const Ack = Type.Object({ message: Type.String() });
const unauthorized = (codes: string) => ({ description: codes, schema: ErrorBody });
/** A credential change's wrong tries share the account's budget with sign-in. */
const accountLocked = unauthorized('`too_many_attempts`: wrong tries count with sign-in failures on the account (Retry-After)');
const NO_STORE = { 'cache-control': 'no-store' };

/** /auth/*: sign-in and the signed-in user's account. JWT only: an API key here is 401 jwt_required. */
export function authRoutes(deps: Core & { auth: Credentials; identity: SigningKeys; limits: Limits; totpSecrets: TotpSecrets }): Route[] {
  const signIn = async () => ({ ...deps, ring: await deps.identity.ring(), attempts: deps.limits.guard });
  const checking = { ...deps, attempts: deps.limits.guard };
  return [
    defineRoute({
      method: 'POST', path: '/auth/login', operationId: 'login', tags: ['auth'], auth: 'sign_in',
      summary: 'Sign in with e-mail and password',
      description: 'Answers an access token (RS256 JWT, 15 minutes) and a refresh token (30 days). A user with two-factor authentication gets `two_factor_required` and a challenge for POST /auth/login/totp instead. Every failure is `invalid_credentials` and is recorded as a security event.',
      body: LoginRequest,
      responses: { 200: { description: 'tokens, or the two-factor challenge', schema: Type.Union([TokenPair, TwoFactorRequired]) }, 401: unauthorized('`invalid_credentials`; `jwt_required` when an API key is sent'), 429: unauthorized('`too_many_attempts`: 10 failures on one account, then one try every 30 s (Retry-After); the lock-out is in the organisation\'s security log (SignInLockedOut, with the addresses the failures came from) and sent as the user.locked_out webhook') },
      handle: async ({ body, ip }) => ({ status: 200, body: await login(await signIn(), { email: body.email, password: body.password, ip }), headers: NO_STORE }),
    }),
    defineRoute({
      method: 'POST', path: '/auth/login/totp', operationId: 'loginTotp', tags: ['auth'], auth: 'sign_in',
      summary: 'Second step of sign-in: the authenticator code',
      body: TotpLogin,
      responses: { 200: { description: 'tokens', schema: TokenPair }, 401: unauthorized('`invalid_totp_code` (wrong or already used), `invalid_login_challenge` (expired: sign in again)'), 429: unauthorized('`too_many_attempts` on this challenge') },
      handle: async ({ body, ip }) => ({ status: 200, body: await loginWithTotp(await signIn(), { challenge_token: body.challenge_token, code: body.code, ip }), headers: NO_STORE }),
    }),
    defineRoute({
      method: 'POST', path: '/auth/refresh', operationId: 'refreshTokens', tags: ['auth'], auth: 'sign_in',
      summary: 'Rotate the token pair',
      description: 'The refresh token sent is used up: keep the new one. Sending a used refresh token again ends the whole session (every token of it), as the OAuth security BCP advises.',
      body: RefreshRequest,
      responses: { 200: { description: 'a new pair', schema: TokenPair }, 401: unauthorized('`invalid_refresh_token`') },
      handle: async ({ body }) => ({ status: 200, body: await refresh(await signIn(), { refresh_token: body.refresh_token }), headers: NO_STORE }),
    }),
    defineRoute({
      method: 'POST', path: '/auth/logout', operationId: 'logout', tags: ['auth'], auth: 'sign_in',
      summary: 'End the session of a refresh token',
      description: 'Its refresh token and every access token of the session stop working: on this instance from this answer on, on the others as soon as the revocation notice reaches them (milliseconds).',
      body: RefreshRequest,
      responses: { 200: { description: 'ended', schema: Ack }, 401: unauthorized('`invalid_refresh_token`') },
      async handle({ body }) {
        const position = await logout(await signIn(), { refresh_token: body.refresh_token });
        // answered once announced: the projector sends the notice to the other instances as it commits
        if (position) await deps.projections.caughtUp(position, deps.config.readYourWritesTimeoutMs, ['identity']);
        return { status: 200, body: { message: 'signed out' } };
      },
    }),
    defineRoute({
      method: 'GET', path: '/auth/me', operationId: 'me', tags: ['auth'], auth: 'user',
      summary: 'The signed-in user',
      responses: { 200: { description: 'the user', schema: Me }, 401: unauthorized('`jwt_required`, `invalid_token`') },
      handle: async ({ actor }) => ({ status: 200, body: await me(deps, actor) }),
    }),
    defineRoute({
      method: 'POST', path: '/auth/password', operationId: 'changePassword', tags: ['auth'], auth: 'user',
      summary: 'Change the password',
      description: 'The new password: 8-128 characters with an upper-case letter, a lower-case letter, a digit and a special character (422 `weak_password` lists what is missing). Other sessions of the user end.',
      body: PasswordChange,
      responses: { 200: { description: 'changed', schema: Ack }, 401: unauthorized('`invalid_credentials`: the current password is wrong'), 429: accountLocked, 422: { description: '`weak_password`', schema: ErrorBody } },
      async handle({ body, actor, requestId, ip }) {
        await changePassword(checking, { actor, requestId, ip, currentPassword: body.current_password, newPassword: body.new_password, sessionId: actor.sessionId });
        return { status: 200, body: { message: 'password changed' } };
      },
    }),
    defineRoute({
      method: 'POST', path: '/auth/2fa/enrol', operationId: 'enrolTotp', tags: ['auth'], auth: 'user',
      summary: 'Start two-factor enrolment (TOTP)',
      description: 'Answers the secret and an otpauth:// URI for an authenticator app; two-factor is on once POST /auth/2fa/confirm gets a code. The secret is in this answer only: the service keeps it sealed (AES-256-GCM under its TOTP key) and never shows it again; enrolling again while not yet confirmed issues a new one.',
      responses: { 200: { description: 'the secret', schema: Type.Object({ secret: Type.String(), otpauth_uri: Type.String() }) }, 409: { description: '`totp_already_enabled`', schema: ErrorBody } },
      handle: async ({ actor, requestId }) => ({ status: 200, body: await enrolTotp(deps, { actor, requestId }), headers: NO_STORE }),
    }),
    defineRoute({
      method: 'POST', path: '/auth/2fa/confirm', operationId: 'confirmTotp', tags: ['auth'], auth: 'user',
      summary: 'Turn two-factor on with a first code',
      body: Code,
      responses: { 200: { description: 'on', schema: Ack }, 401: unauthorized('`invalid_totp_code`'), 429: accountLocked, 409: { description: '`totp_not_pending`', schema: ErrorBody } },
      async handle({ body, actor, requestId, ip }) {
        await confirmOrDisableTotp(checking, { actor, requestId, ip, code: body.code, action: 'confirm', sessionId: actor.sessionId });
        return { status: 200, body: { message: 'two-factor authentication is on' } };
      },
    }),
    defineRoute({
      method: 'POST', path: '/auth/2fa/disable', operationId: 'disableTotp', tags: ['auth'], auth: 'user',
      summary: 'Turn two-factor off with a current code',
      body: Code,
      responses: { 200: { description: 'off', schema: Ack }, 401: unauthorized('`invalid_totp_code`'), 429: accountLocked, 409: { description: '`totp_not_enabled`', schema: ErrorBody } },
      async handle({ body, actor, requestId, ip }) {
        await confirmOrDisableTotp(checking, { actor, requestId, ip, code: body.code, action: 'disable', sessionId: actor.sessionId });
        return { status: 200, body: { message: 'two-factor authentication is off' } };
      },
    }),
  ];
}
