import type { DomainEvent } from './event.ts';

/** Why a refresh family ends; `reuse_detected` means a rotated-out token came back (likely stolen). */
export type RefreshRevocationReason = 'logout' | 'reuse_detected' | 'password_changed' | 'totp_changed' | 'user_removed' | 'admin';

/** One login session: every refresh token it ever issued belongs to it, so reuse can end them all. */
export type RefreshFamilyStarted = DomainEvent<
  'RefreshFamilyStarted',
  {
    family_id: string;
    user_id: string;
    organisation_id: string;
    /** SHA-256 (hex) of the refresh token: the token itself is never stored */
    token_hash: string;
    expires_at: string;
    started_at: string;
  }
>;
export type RefreshTokenRotated = DomainEvent<
  'RefreshTokenRotated',
  { family_id: string; token_hash: string; expires_at: string; rotated_at: string }
>;
export type RefreshFamilyRevoked = DomainEvent<
  'RefreshFamilyRevoked',
  { family_id: string; user_id: string; organisation_id: string; reason: RefreshRevocationReason; revoked_at: string }
>;
export type RefreshFamilyEvent = RefreshFamilyStarted | RefreshTokenRotated | RefreshFamilyRevoked;

export type PasswordChanged = DomainEvent<
  'PasswordChanged',
  {
    user_id: string;
    /** scrypt hash with its parameters and salt; never the password */
    password_hash: string;
    changed_at: string;
  }
>;
/**
 * Written until issue 37, with the secret (base32) in plaintext; no longer written. On Postgres and
 * PGlite every stored one is rewritten once, at start, into a TotpSecretIssued with the secret
 * sealed (src/modules/identity/seal-totp-secrets.ts), so none stays readable there; one still in
 * an EventStoreDB log (which cannot be changed) folds as it did.
 */
export type TotpEnrolmentStarted = DomainEvent<'TotpEnrolmentStarted', { user_id: string; secret: string; started_at: string }>;
/**
 * Two-factor enrolment starts: the service issued the user a TOTP secret. It is a shared secret,
 * so the server must keep it to check codes (unlike a password): stored sealed (AES-256-GCM under
 * TOTP_SECRET_KEY, src/platform/secret-box.ts), never in plaintext. Pending until a first code
 * proves the authenticator app holds it.
 */
export type TotpSecretIssued = DomainEvent<'TotpSecretIssued', { user_id: string; secret_ciphertext: string; issued_at: string }>;
/** `step` is the 30 s time step of the accepted code; a code of that step or earlier is never accepted again. */
export type TotpEnabled = DomainEvent<'TotpEnabled', { user_id: string; step: number; enabled_at: string }>;
export type TotpDisabled = DomainEvent<'TotpDisabled', { user_id: string; step: number; disabled_at: string }>;
export type TotpCodeUsed = DomainEvent<'TotpCodeUsed', { user_id: string; step: number; used_at: string }>;
export type UserCredentialsEvent = PasswordChanged | TotpEnrolmentStarted | TotpSecretIssued | TotpEnabled | TotpDisabled | TotpCodeUsed;

export type LoginFailureReason = 'unknown_email' | 'wrong_password' | 'invalid_totp_code' | 'invalid_login_challenge';

/** Security events an organisation admin reads; `organisation_id` is null when the e-mail matched no user. */
export type LoginFailed = DomainEvent<
  'LoginFailed',
  { email: string; organisation_id: string | null; user_id: string | null; ip: string; reason: LoginFailureReason; at: string }
>;
export type LoginSucceeded = DomainEvent<
  'LoginSucceeded',
  { email: string; organisation_id: string; user_id: string; ip: string; method: 'password' | 'password_totp'; at: string }
>;
export type LoginAttemptEvent = LoginFailed | LoginSucceeded;

/** A signed-in user's credential change that presented a wrong current password or TOTP code. */
export type CredentialCheckFailed = DomainEvent<
  'CredentialCheckFailed',
  {
    organisation_id: string; user_id: string; email: string; ip: string;
    action: 'change_password' | 'confirm_totp' | 'disable_totp'; reason: 'wrong_current_password' | 'invalid_totp_code'; at: string;
  }
>;

/**
 * Wrong tries emptied a sign-in budget (commands/identity/sign-in-lockout.ts): the account's
 * (`account`: wrong passwords at sign-in or on a credential change; every try is refused until
 * `locked_until`, then one is let through every 30 s) or one two-factor challenge's
 * (`two_factor_challenge`: wrong codes after a right password). `ips`: the addresses whose failures
 * emptied it, each once, in the order they first failed; `failures`: how many were counted.
 */
export type SignInLockedOut = DomainEvent<
  'SignInLockedOut',
  {
    organisation_id: string; user_id: string; email: string; scope: 'account' | 'two_factor_challenge'; failures: number; ips: string[];
    locked_at: string; locked_until: string;
  }
>;

export type OAuthClientIssued = DomainEvent<
  'OAuthClientIssued',
  {
    client_id: string;
    organisation_id: string;
    name: string;
    scopes: string[];
    /** SHA-256 (hex) of the client secret: the secret is shown once and never stored */
    secret_hash: string;
    issued_at: string;
    issued_by: string;
  }
>;
export type OAuthClientRevoked = DomainEvent<
  'OAuthClientRevoked',
  { client_id: string; organisation_id: string; revoked_at: string; revoked_by: string }
>;
export type OAuthClientEvent = OAuthClientIssued | OAuthClientRevoked;

export const refreshFamilyStream = (familyId: string) => `refresh_family-${familyId}`;
export const userCredentialsStream = (userId: string) => `user_credentials-${userId}`;
export const oauthClientStream = (clientId: string) => `oauth_client-${clientId}`;
/** Login attempts carry no invariant, so they are only appended; unknown e-mails have no organisation. */
export const securityEventStream = (organisationId: string | null) => `security_events-${organisationId ?? 'unattributed'}`;
