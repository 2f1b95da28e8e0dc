import type { ClaimState, ClaimValue } from '../../../commands/shared/unique-claim.ts';
import type { Decider } from '../../../commands/shared/decider.ts';
import { claimStream, type ValueClaimed } from '../../../events/claims.ts';
import { WrongExpectedRevision, type AppendResult, type EventMetadata, type EventStore, type NewStream } from '../eventstore/port.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import { appendAll, appendAt } from './append.ts';
import { decideAndAppend, toNewEvents } from './decide-and-append.ts';

type ClaimDeps = { store: EventStore; ids: Ids; clock: Clock };

type ClaimDecider = Decider<ClaimValue, ValueClaimed, ClaimState>;

/** A value to claim in `claim-<scope>-<value>` for `holderId`, whose stream is `holderStream(holderId)`. */
export type UniqueClaim = { decider: ClaimDecider; scope: string; value: string; holderId: string; holderStream: (holder: string) => string };

const claimValue = (deps: ClaimDeps, claim: UniqueClaim, holderExists: boolean): ClaimValue => ({
  type: 'ClaimValue', scope: claim.scope, value: claim.value, holder_id: claim.holderId, holder_exists: holderExists,
  at: deps.clock.now().toISOString(),
});

/**
 * Claims the value for a holder that does not exist yet and starts the holder's stream with it.
 * Most values are claimed for the first time, so both go in one append, all or nothing (where the
 * store can: see appendToNewStreams). A value already claimed takes the long way: claimTaken
 * (which takes over a claim whose holder never got written, or refuses), then the holder alone.
 * Returns the holder's append.
 */
export async function claimForNewHolder(deps: ClaimDeps, claim: UniqueClaim, holder: NewStream, metadata: EventMetadata): Promise<AppendResult> {
  const claimed = {
    streamId: claimStream(claim.scope, claim.value),
    events: toNewEvents(deps, claim.decider.decide(claimValue(deps, claim, false), claim.decider.initialState), metadata),
  };
  try {
    const appended = await appendAll(deps.store, [{ ...claimed, at: { newStream: true } }, { ...holder, at: { newStream: true } }]);
    return { nextRevision: appended.streams[1]?.nextRevision ?? holder.events.length - 1, position: appended.position };
  } catch (error) {
    if (!(error instanceof WrongExpectedRevision && error.streamId === claimed.streamId)) throw error;
  }
  await claimTaken(deps, claim, metadata);
  return appendAt(deps.store, { ...holder, at: { newStream: true } });
}

/**
 * Claims the value for its holder, or throws the decider's conflict error. Most values are claimed
 * for the first time, so the first attempt appends with no_stream without reading; only when the
 * value is taken does it go on as claimTaken.
 */
export async function claimUnique(deps: ClaimDeps, claim: UniqueClaim, metadata: EventMetadata): Promise<void> {
  try {
    await decideAndAppend(deps, claimStream(claim.scope, claim.value), claim.decider, claimValue(deps, claim, false), { metadata, expected: { newStream: true } });
    return;
  } catch (error) {
    if (!(error instanceof WrongExpectedRevision)) throw error;
  }
  await claimTaken(deps, claim, metadata);
}

/**
 * A value someone claimed before: the claim is read, with whether its holder exists, and the
 * decider takes it over or refuses. One retry turns a lost race into the proper conflict.
 */
async function claimTaken(deps: ClaimDeps, claim: UniqueClaim, metadata: EventMetadata): Promise<void> {
  const holderExists = async (state: ClaimState) =>
    state.holder !== null && (await deps.store.readStream(claim.holderStream(state.holder))).length > 0;
  await decideAndAppend(deps, claimStream(claim.scope, claim.value), claim.decider,
    async (state) => claimValue(deps, claim, await holderExists(state)), { metadata, expected: { retry: { onVersionConflict: 1 } } });
}
