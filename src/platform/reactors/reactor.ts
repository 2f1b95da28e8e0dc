import { stableUuid } from '../../../commands/shared/stable-id.ts';
import type { RecordedEvent } from '../eventstore/port.ts';

/**
 * A side effect driven by events (Peppol delivery, FS filing, webhook fan-out, bulk import).
 * Delivery is at least once: after a crash the last event may come again, so `react` must be
 * idempotent by `event.id` (derive ids of what it writes with `derivedId`, or record the effect
 * under the event id). Outcomes are recorded as new events, not as state of the reactor.
 */
export interface Reactor {
  name: string;
  handles: readonly string[];
  /**
   * How many reactions may run at once (default 1). Events of one stream still react in order;
   * the checkpoint moves only past a batch whose reactions all finished.
   */
  concurrency?: number;
  /** `signal` aborts when the runner stops: a reaction waiting to retry gives up its wait (it runs again on restart). */
  react(event: RecordedEvent, signal: AbortSignal): Promise<void>;
  /**
   * Sees every handled event of a batch, in order, before any reaction of that batch starts: a
   * reactor may keep in memory what those events tell (and must not trust it for an event it was
   * not shown this way). A batch read again (a restart) is shown again.
   */
  observe?(events: readonly RecordedEvent[]): void;
}

/**
 * A stable UUID for the n-th thing a reactor writes because of one event, so a repeated
 * reaction writes the same ids and the store (or the receiver) recognises the duplicate.
 */
export function derivedId(sourceEventId: string, reactor: string, n = 0): string {
  return stableUuid(sourceEventId, reactor, String(n));
}
