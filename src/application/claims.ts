import type { ClaimState, ClaimValue } from '../../commands/shared/unique-claim.ts';
import type { Decider } from '../../commands/shared/decider.ts';
import { claimStream, type ValueClaimed } from '../../events/claims.ts';
import { WrongExpectedRevision, type AppendResult, type EventMetadata, type NewStream } from '../eventstore/port.ts';
import { handleCommand, toNewEvents } from '../handling/command-handler.ts';
import type { Services } from '../services.ts';

type Deps = Pick<Services, 'store' | 'ids' | 'clock'>;

type Claim = { scope: string; value: string; holderId: string; holderStream: (holder: string) => string };
type ClaimDecider = Decider<ClaimValue, ValueClaimed, ClaimState>;

const claimValue = (deps: Deps, claim: Claim, holderExists: boolean): ClaimValue => ({
  type: 'ClaimValue', scope: claim.scope, value: claim.value, holder_id: claim.holderId, holder_exists: holderExists,
  at: deps.clock.now().toISOString(),
});

/**
 * Claims `value` for a holder that does not exist yet and starts the holder's stream with it.
 * Most values are claimed for the first time, so both go in one append, all or nothing (where the
 * store can: see appendToNewStreams). A value already claimed takes the long way: claimTaken
 * (which takes over a claim whose holder never got written, or refuses), then the holder alone.
 * Returns the holder's append.
 */
export async function claimForNewHolder(deps: Deps, decider: ClaimDecider, claim: Claim, holder: NewStream, metadata: EventMetadata): Promise<AppendResult> {
  const claimed = { streamId: claimStream(claim.scope, claim.value), events: toNewEvents(deps, decider.decide(claimValue(deps, claim, false), decider.initialState), metadata) };
  try {
    const [, appended] = await deps.store.appendToNewStreams([claimed, holder]);
    if (!appended) throw new Error(`appendToNewStreams gave no result for ${holder.streamId}`);
    return appended;
  } catch (error) {
    if (!(error instanceof WrongExpectedRevision && error.streamId === claimed.streamId)) throw error;
  }
  await claimTaken(deps, decider, claim, metadata);
  return deps.store.append(holder.streamId, holder.events, 'no_stream');
}

/**
 * Claims `value` in `scope` for `holderId`, or throws the decider's conflict error. Most values
 * are claimed for the first time, so the first attempt appends with no_stream without reading;
 * only when the value is taken does it go on as claimTaken.
 */
export async function claimUnique(deps: Deps, decider: ClaimDecider, claim: Claim, metadata: EventMetadata): Promise<void> {
  try {
    await handleCommand(deps, claimStream(claim.scope, claim.value), decider, claimValue(deps, claim, false), { metadata, newStream: true });
    return;
  } catch (error) {
    if (!(error instanceof WrongExpectedRevision)) throw error;
  }
  await claimTaken(deps, decider, claim, metadata);
}

/**
 * A value someone claimed before: the claim is read, with whether its holder exists (read from
 * `holderStream(holder)`), and the decider takes it over or refuses. One retry turns a lost race
 * into the proper conflict.
 */
async function claimTaken(deps: Deps, decider: ClaimDecider, claim: Claim, metadata: EventMetadata): Promise<void> {
  const stream = claimStream(claim.scope, claim.value);
  for (let attempt = 0; ; attempt++) {
    const claims = await deps.store.readStream(stream);
    const holder = claims.length > 0 ? String(claims[claims.length - 1]?.data.holder_id) : null;
    const holderExists = holder !== null && (await deps.store.readStream(claim.holderStream(holder))).length > 0;
    try {
      await handleCommand(deps, stream, decider, claimValue(deps, claim, holderExists), { metadata });
      return;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision) || attempt > 0) throw error;
    }
  }
}
