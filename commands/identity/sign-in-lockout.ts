import type { SignInLockedOut } from '../../events/identity.ts';

/**
 * When wrong sign-in tries lock an account (or a two-factor challenge) out, and what its
 * organisation is told. The budget itself is the invalid-credential guard's token bucket
 * (src/platform/limits/invalid-credential-guard.ts: 10 at once, then one more every 30 s); this rule
 * turns the guard's answer to one failure into a lock-out to record, at most one per window, so a
 * slow guesser let through every 30 s is one lock-out, not one per try.
 */
export const SIGN_IN_LOCKOUT = {
  /** how far back a lock-out looks: for the failures that caused it, and for the lock-out it continues */
  windowSeconds: 15 * 60,
  /** the addresses named at most (a spread guess may come from many): the most recent are kept */
  maxAddresses: 20,
} as const;

const IP_MAX = 64;

export interface SignInFailure {
  ip: string;
  at: string;
}

export interface SignInLockoutFacts {
  organisation_id: string;
  user_id: string;
  email: string;
  scope: SignInLockedOut['data']['scope'];
  /** the guard's answer to this failure: whether tries are refused from now, and for how long */
  blocked: boolean;
  retry_after_seconds: number;
  /** this failure */
  failure: SignInFailure;
  /** the same budget's failures recorded before this one (any order; older ones are ignored) */
  earlier: readonly SignInFailure[];
  /** when this user's last lock-out of the same scope was recorded; null if never */
  last_locked_at: string | null;
}

/**
 * The lock-out this failure causes, or null: none while the guard still admits tries, and none
 * while a lock-out recorded within the window is still the one going on. It names every address
 * whose failures within the window were counted, each once, in the order they first failed.
 */
export function signInLockout(facts: SignInLockoutFacts): SignInLockedOut | null {
  if (!facts.blocked) return null;
  const now = Date.parse(facts.failure.at);
  const since = now - SIGN_IN_LOCKOUT.windowSeconds * 1000;
  if (facts.last_locked_at !== null && Date.parse(facts.last_locked_at) > since) return null;
  const counted = facts.earlier
    .filter((f) => Date.parse(f.at) > since && Date.parse(f.at) <= now)
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  counted.push(facts.failure);
  const ips = [...new Set(counted.map((f) => f.ip.slice(0, IP_MAX)))].slice(-SIGN_IN_LOCKOUT.maxAddresses);
  return {
    type: 'SignInLockedOut',
    data: {
      organisation_id: facts.organisation_id, user_id: facts.user_id, email: facts.email, scope: facts.scope, failures: counted.length, ips,
      locked_at: facts.failure.at, locked_until: new Date(now + Math.max(0, facts.retry_after_seconds) * 1000).toISOString(),
    },
  };
}
