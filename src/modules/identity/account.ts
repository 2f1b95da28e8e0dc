import { credentialCheckFailed } from '../../../commands/identity/login-attempts.ts';
import { refreshFamilyDecider } from '../../../commands/identity/refresh-family.ts';
import { userCredentialsDecider } from '../../../commands/identity/user-credentials.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { refreshFamilyStream, securityEventStream, userCredentialsStream, type CredentialCheckFailed, type RefreshRevocationReason } from '../../../events/identity.ts';
import { activeSessions } from '../../../projections/identity/queries.ts';
import { findUser } from '../../../projections/tenancy/queries.ts';
import type { UserRow } from '../../../projections/tenancy/rows.ts';
import { appendToLog } from '../../platform/handling/append.ts';
import { handleCommand, toNewEvents } from '../../platform/handling/command-handler.ts';
import { newTotpSecret, totpUri, verifyTotp } from './totp.ts';
import { totpSecretInClear, type TotpSecrets } from './totp-secrets.ts';
import type { Core } from '../../platform/core.ts';
import type { Credentials } from './credentials.ts';
import { hashPassword, verifyPassword } from './credential-secrets.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';
import { accountKey, currentCredentials, notLockedOut } from './sign-in.ts';
import { recordSignInLockout } from './lockouts.ts';
import type { InvalidCredentialGuard } from '../../platform/limits/invalid-credential-guard.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock' | 'readModels' | 'projections' | 'config'> & { auth: Credentials };
/** what two-factor changes need besides: the box the TOTP secret is sealed in */
type TotpDeps = { totpSecrets: TotpSecrets };
type Request = { actor: Actor; requestId: string };
/** A credential change re-checks a secret: it shares the account's budget of wrong tries with sign-in. */
type CheckingDeps = Deps & { attempts: InvalidCredentialGuard };
type Checked = Request & { ip: string };
/** The deciders' refusals that mean a wrong current secret was presented, as the security log names them. */
const WRONG_SECRET = new Map<string, CredentialCheckFailed['data']['reason']>([
  ['invalid_credentials', 'wrong_current_password'],
  ['invalid_totp_code', 'invalid_totp_code'],
]);

/**
 * Runs a credential change whose decider refuses a wrong current password or code (401). Such a
 * refusal is recorded in the organisation's security log and counts against the account, so a
 * stolen session cannot guess the password or walk through TOTP codes at leisure.
 */
async function checkedChange(
  deps: CheckingDeps,
  request: Checked,
  user: UserRow,
  action: CredentialCheckFailed['data']['action'],
  change: () => Promise<unknown>,
): Promise<void> {
  await notLockedOut(deps, accountKey(user.email));
  try {
    await change();
  } catch (error) {
    const reason = error instanceof DomainError ? WRONG_SECRET.get(error.code) : undefined;
    if (reason) {
      const guard = await deps.attempts.failed(accountKey(user.email));
      const at = deps.clock.now().toISOString();
      const event = credentialCheckFailed({ organisation_id: user.organisation_id, user_id: user.id, email: user.email, ip: request.ip, action, reason, at });
      const logged = await appendToLog(deps.store, securityEventStream(user.organisation_id), toNewEvents(deps, [event], requestMetadata(request.actor, request.requestId)));
      await recordSignInLockout(deps, { user, scope: 'account', failure: { ip: request.ip, at }, guard, logged: logged.position });
    }
    throw error;
  }
}

/** The issuer name authenticator apps show beside the account. */
const TOTP_ISSUER = 'SK e-invoicing';

async function signedInUser(deps: Deps, actor: Actor): Promise<UserRow> {
  const user = await findUser(deps.readModels, actor.id);
  if (!user || user.organisation_id !== actor.organisationId) throw new DomainError('user_not_found', 'the signed-in user no longer exists');
  return user;
}

export async function me(deps: Deps, actor: Actor) {
  const user = await signedInUser(deps, actor);
  const credentials = await currentCredentials(deps, user.id);
  return {
    id: user.id, email: user.email, name: user.name, role: user.role, organisation_id: user.organisation_id, is_platform_admin: false,
    two_factor_enabled: credentials.totp.status === 'enabled',
  };
}

/** Ends the user's other sessions: their refresh tokens and their access tokens stop working. */
async function endSessions(deps: Deps, request: Request, reason: RefreshRevocationReason, keep: string | undefined): Promise<void> {
  for (const familyId of await activeSessions(deps.readModels, request.actor.id)) {
    if (familyId === keep) continue;
    const handled = await handleCommand(deps, refreshFamilyStream(familyId), refreshFamilyDecider, { type: 'Revoke', reason, at: deps.clock.now().toISOString() }, {
      metadata: requestMetadata(request.actor, request.requestId),
    });
    deps.auth.revocations.learnFrom(handled.events);
  }
}

/** The new password must meet the policy (422 weak_password); the current one must be right (401 invalid_credentials). */
export async function changePassword(deps: CheckingDeps, request: Checked & { currentPassword: string; newPassword: string; sessionId?: string }): Promise<void> {
  const user = await signedInUser(deps, request.actor);
  await checkedChange(deps, request, user, 'change_password', async () => {
    const credentials = await currentCredentials(deps, user.id);
    const verified = await verifyPassword(request.currentPassword, credentials.password_hash ?? user.password_hash);
    await handleCommand(deps, userCredentialsStream(user.id), userCredentialsDecider, {
      type: 'ChangePassword', user_id: user.id, current_password_verified: verified, new_password: request.newPassword,
      new_password_hash: verified ? await hashPassword(request.newPassword) : 'scrypt$unused', at: deps.clock.now().toISOString(),
    }, { metadata: requestMetadata(request.actor, request.requestId) });
  });
  await endSessions(deps, request, 'password_changed', request.sessionId);
}

/** Starts (or restarts) two-factor enrolment: the secret and an otpauth:// URI for an authenticator app; the stream keeps it sealed. */
export async function enrolTotp(deps: Deps & TotpDeps, request: Request) {
  const user = await signedInUser(deps, request.actor);
  const secret = newTotpSecret();
  const secretCiphertext = (await deps.totpSecrets.box()).seal(secret);
  await handleCommand(deps, userCredentialsStream(user.id), userCredentialsDecider, {
    type: 'EnrolTotp', user_id: user.id, secret, secret_ciphertext: secretCiphertext, at: deps.clock.now().toISOString(),
  }, { metadata: requestMetadata(request.actor, request.requestId) });
  return { secret, otpauth_uri: totpUri({ issuer: TOTP_ISSUER, account: user.email, secret }) };
}

/** Confirms enrolment with a first code (two-factor is on from now) or turns it off with a current code. */
export async function confirmOrDisableTotp(deps: CheckingDeps & TotpDeps, request: Checked & { code: string; action: 'confirm' | 'disable'; sessionId?: string }): Promise<void> {
  const user = await signedInUser(deps, request.actor);
  await checkedChange(deps, request, user, request.action === 'confirm' ? 'confirm_totp' : 'disable_totp', async () => {
    const credentials = await currentCredentials(deps, user.id);
    const matched = credentials.totp.status === 'none' ? null : verifyTotp(await totpSecretInClear(deps.totpSecrets, credentials.totp.secret), request.code, deps.clock.now());
    await handleCommand(deps, userCredentialsStream(user.id), userCredentialsDecider, {
      type: request.action === 'confirm' ? 'ConfirmTotp' : 'DisableTotp', user_id: user.id, matched_step: matched, at: deps.clock.now().toISOString(),
    }, { metadata: requestMetadata(request.actor, request.requestId) });
  });
  await endSessions(deps, request, 'totp_changed', request.sessionId);
}
