/**
 * The lock-out rule (sapi-sk.md, Authentication rule 5), decided on the client's own stream so it
 * holds across instances. Only a wrong client_secret for a known client_id counts; an unknown
 * client_id has no stream to count on and cannot be locked.
 */
export const SAPI_LOCKOUT = {
  /** this many failures … */
  threshold: 5,
  /** … within this window lock the client … */
  windowSeconds: 15 * 60,
  /** … for this long (the spec's 15 minutes) */
  lockSeconds: 15 * 60,
} as const;

export interface LockoutState {
  /** when recent failures happened (ms since the epoch), oldest first; only those after the last lock */
  failures: number[];
  /** ms since the epoch; null when never locked */
  lockedUntil: number | null;
}

export const noLockout: LockoutState = { failures: [], lockedUntil: null };

/** Seconds the client is still locked at `now`, or 0. */
export function lockedFor(state: LockoutState, now: number): number {
  return state.lockedUntil !== null && state.lockedUntil > now ? Math.ceil((state.lockedUntil - now) / 1000) : 0;
}

/** Whether one more failure at `now` reaches the threshold within the window. */
export function failureLocks(state: LockoutState, now: number): { failures: number; locks: boolean } {
  const since = now - SAPI_LOCKOUT.windowSeconds * 1000;
  const failures = state.failures.filter((t) => t > since).length + 1;
  return { failures, locks: failures >= SAPI_LOCKOUT.threshold };
}

/** A failure recorded; a lock starts the count again (failures before it never count twice). */
export function afterFailure(state: LockoutState, at: number): LockoutState {
  const since = at - SAPI_LOCKOUT.windowSeconds * 1000;
  return { ...state, failures: [...state.failures.filter((t) => t > since), at] };
}

export function afterLock(state: LockoutState, until: number): LockoutState {
  return { failures: [], lockedUntil: until };
}
