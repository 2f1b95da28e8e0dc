import { SIGN_IN_LOCKOUT, signInLockout, type SignInFailure } from '../../../commands/identity/sign-in-lockout.ts';
import { securityEventStream, type SignInLockedOut } from '../../../events/identity.ts';
import { signInLockoutFacts } from '../../../projections/identity/queries.ts';
import type { Core } from '../../platform/core.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import { appendToLog } from '../../platform/handling/append.ts';
import { toNewEvents } from '../../platform/handling/command-handler.ts';
import { systemMetadata } from '../tenancy/index.ts';

type LockoutDeps = Pick<Core, 'store' | 'ids' | 'clock' | 'readModels' | 'projections' | 'config'>;

export interface FailedTry {
  user: { id: string; organisation_id: string; email: string };
  scope: SignInLockedOut['data']['scope'];
  failure: SignInFailure;
  /** the invalid-credential guard's answer to this failure */
  guard: { blocked: boolean; retryAfterSeconds: number };
  /** where the failure itself was logged: the security log is read once it shows it */
  logged: Position;
}

/**
 * After a failed try, records the lock-out it caused in the organisation's security log, when the
 * rule says it caused one (commands/identity/sign-in-lockout.ts). The earlier failures it names
 * are read from the log once it shows this one, so those of requests just before are in; if the
 * log lags beyond the read-your-writes bound, the lock-out names what it shows by then.
 */
export async function recordSignInLockout(deps: LockoutDeps, failed: FailedTry): Promise<void> {
  if (!failed.guard.blocked) return;
  await deps.projections.caughtUp(failed.logged, deps.config.readYourWritesTimeoutMs, ['identity']);
  const since = new Date(Date.parse(failed.failure.at) - SIGN_IN_LOCKOUT.windowSeconds * 1000).toISOString();
  const { user } = failed;
  const known = await signInLockoutFacts(deps.readModels, { organisationId: user.organisation_id, userId: user.id, scope: failed.scope, since, before: failed.failure.at });
  const event = signInLockout({
    organisation_id: user.organisation_id, user_id: user.id, email: user.email, scope: failed.scope, blocked: failed.guard.blocked,
    retry_after_seconds: failed.guard.retryAfterSeconds, failure: failed.failure, earlier: known.earlier, last_locked_at: known.last_locked_at,
  });
  if (event) await appendToLog(deps.store, securityEventStream(user.organisation_id), toNewEvents(deps, [event], systemMetadata('sign-in')));
}
