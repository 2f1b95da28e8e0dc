import { DomainError } from './domain-error.ts';

/**
 * The order of a conditional write's answers (RFC 9110 §13.2.1: preconditions are evaluated after
 * the checks that do not depend on them, and before the request's content is processed):
 *
 * 1. what can never succeed, whatever version the client read and whatever it sends: the resource
 *    is not there or not the caller's (NotFound), the caller may not do this, or the resource's
 *    own state refuses it (a locked credit note, a status that allows no such change): a
 *    StandingRefusal;
 * 2. then the precondition: `if_match_required` where a write needs the version it replaces, a
 *    stale version (`version_mismatch`);
 * 3. then what the request asks for (its fields, the amounts left to credit, the number it names):
 *    the client built it on the version it read, so on a stale one it is told to reload first.
 *
 * A decider throws a StandingRefusal for the refusals of 1; the command handling lets them through
 * before a stale If-Match, and `requireVersion` is asked after them.
 */
export class StandingRefusal extends DomainError {}

/** 428 natively: a write that replaces what the client read must name the version it read (If-Match). */
export function requireVersion(expectedVersion: number | undefined, what: string): number {
  if (expectedVersion === undefined) throw new DomainError('if_match_required', `send If-Match with ${what}`);
  return expectedVersion;
}
