/**
 * The lock-out rule (sapi-sk.md, Authentication rule 5), decided on the client's own stream so it
 * holds across instances. Only a wrong client_secret for a known client_id counts; an unknown
 * client_id has no stream to count on and cannot be locked, and an address outside the client's
 * allowlist is refused before its secret is looked at, so it counts for nothing (client.ts).
 */
export const SAPI_LOCKOUT = {
  /** this many failures … */
  threshold: 5,
  /** … within this window lock the client … */
  windowSeconds: 15 * 60,
  /** … for this long (the spec's 15 minutes) */
  lockSeconds: 15 * 60,
} as const;

/** One counted failure: when (ms since the epoch) and from which address. */
export interface CountedFailure {
  at: number;
  ip: string;
}

export interface LockoutState {
  /** recent failures, oldest first; only those after the last lock */
  failures: CountedFailure[];
  /** ms since the epoch; null when never locked */
  lockedUntil: number | null;
}

export const noLockout: LockoutState = { failures: [], lockedUntil: null };

/** Seconds the client is still locked at `now`, or 0. */
export function lockedFor(state: LockoutState, now: number): number {
  return state.lockedUntil !== null && state.lockedUntil > now ? Math.ceil((state.lockedUntil - now) / 1000) : 0;
}

const inWindow = (failures: readonly CountedFailure[], now: number) => failures.filter((f) => f.at > now - SAPI_LOCKOUT.windowSeconds * 1000);

/**
 * Whether one more failure at `now` from `ip` reaches the threshold within the window, and if so
 * the addresses that caused the lock: every address of the failures counted, each once, in the
 * order they first failed. They are what the client's company is shown (a security event, a
 * webhook), so it can tell its own misconfigured integration from somebody else's guessing.
 */
export function failureLocks(state: LockoutState, now: number, ip: string): { failures: number; locks: boolean; ips: string[] } {
  const counted = [...inWindow(state.failures, now), { at: now, ip }];
  return { failures: counted.length, locks: counted.length >= SAPI_LOCKOUT.threshold, ips: [...new Set(counted.map((f) => f.ip))] };
}

/** A failure recorded; a lock starts the count again (failures before it never count twice). */
export function afterFailure(state: LockoutState, at: number, ip: string): LockoutState {
  return { ...state, failures: [...inWindow(state.failures, at), { at, ip }] };
}

export function afterLock(state: LockoutState, until: number): LockoutState {
  return { failures: [], lockedUntil: until };
}
