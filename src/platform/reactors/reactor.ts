import { stableUuid } from '../../../commands/shared/stable-id.ts';
import type { Recorded } from '../eventstore/port.ts';
import type { AnyEvent, FollowedEvent } from '../readmodel/projector.ts';

/**
 * A side effect driven by events (Peppol delivery, FS filing, webhook fan-out, bulk import).
 * Delivery is at least once: after a crash the last event may come again, so `react` must be
 * idempotent by `event.id` (derive ids of what it writes with `derivedId`, or record the effect
 * under the event id). Outcomes are recorded as new events, not as state of the reactor.
 *
 * `E` is the union of the contracts it handles (`Reactor<InvoiceQueued>`): its events come typed
 * by it (`Recorded<E>`, narrowed by `type`), at their current versions, since the store upcasts
 * every read; `handles` can name only those types.
 */
export interface Reactor<E extends FollowedEvent = AnyEvent> {
  name: string;
  handles: readonly E['type'][];
  /**
   * How many reactions may run at once (default 1). Events of one stream still react in order;
   * the checkpoint moves only past a batch whose reactions all finished.
   */
  concurrency?: number;
  /** `signal` aborts when the runner stops: a reaction waiting to retry gives up its wait (it runs again on restart). */
  react(event: Recorded<E>, signal: AbortSignal): Promise<void>;
  /**
   * Sees every handled event of a batch, in order, before any reaction of that batch starts: a
   * reactor may keep in memory what those events tell (and must not trust it for an event it was
   * not shown this way). A batch read again (a restart) is shown again.
   */
  observe?(events: readonly Recorded<E>[]): void;
}

/**
 * A reactor of the contracts `E`, as its runner holds it. Sound for the reason a projector's is
 * (defineProjector): the runner gives `react` and `observe` only events of the types in `handles`,
 * each at its current version, the shape `E` declares.
 */
export function defineReactor<E extends FollowedEvent>(reactor: Reactor<E>): Reactor {
  return reactor as unknown as Reactor;
}

/**
 * A stable UUID for the n-th thing a reactor writes because of one event, so a repeated
 * reaction writes the same ids and the store (or the receiver) recognises the duplicate.
 */
export function derivedId(sourceEventId: string, reactor: string, n = 0): string {
  return stableUuid(sourceEventId, reactor, String(n));
}
