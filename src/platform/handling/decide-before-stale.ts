import { StandingRefusal } from '../../../commands/shared/preconditions.ts';

/**
 * A decision at a version the writer named (If-Match, or one it read beside the command), in the
 * order of RFC 9110 §13.2.1 (commands/shared/preconditions.ts): a standing refusal first (what does
 * not exist or the caller may not see is a 404, so a version never shows that another company's
 * stream exists; what the state refuses whatever the version), then the stale version (`stale`:
 * null while the version holds), then the decision's own refusal or its result. On a stream that
 * does not exist yet (`exists` false) the decision's refusal comes before the stale version.
 */
export async function decideBeforeStale<T>(stale: Error | null, exists: boolean, decide: () => T | Promise<T>): Promise<T> {
  let decided: T;
  try {
    decided = await decide();
  } catch (error) {
    throw stale && exists && !(error instanceof StandingRefusal) ? stale : error;
  }
  if (stale) throw stale;
  return decided;
}
