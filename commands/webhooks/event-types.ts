/*
 * What a subscription may name. Which types exist and what raises them is the catalogue's
 * (src/modules/webhooks/events/catalogue.ts); the spec accepts any subscription, so a well-formed name that
 * is never emitted is stored too and simply never fires.
 */

/**
 * The list an endpoint gets when `events` is left out. It is resolved and stored at creation:
 * an endpoint made before `invoice.fs_rejected` existed kept the older default and keeps it.
 */
export const DEFAULT_EVENT_TYPES = ['invoice.delivered', 'invoice.rejected', 'invoice.fs_acknowledged', 'invoice.fs_rejected'] as const;

const MAX_SUBSCRIBED_EVENTS = 50;
const EVENT_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** `events` as a client may send it: the spec's comma-separated string, or an array of types. */
export type EventTypesInput = string | readonly string[];

/** `events` as sent (a comma-separated string or an array) to the stored list, or the problem with it. */
export function resolveEventTypes(events: EventTypesInput | null): { ok: true; events: string[] } | { ok: false; problem: string } {
  if (events === null) return { ok: true, events: [...DEFAULT_EVENT_TYPES] };
  if (typeof events !== 'string' && events.length === 0) return { ok: false, problem: 'events lists at least one event type' };
  // an array entry is one type: a comma inside it is refused below, not split
  const names = typeof events === 'string' ? events.split(',').map((name) => name.trim()) : events.map((name) => name.trim());
  if (names.some((name) => name === '')) return { ok: false, problem: 'events is a comma-separated list (or an array) of event types without empty entries' };
  const bad = names.find((name) => !EVENT_NAME.test(name));
  if (bad !== undefined) return { ok: false, problem: `${JSON.stringify(bad)} is not an event type (such as invoice.delivered)` };
  const unique = [...new Set(names)];
  if (unique.length > MAX_SUBSCRIBED_EVENTS) return { ok: false, problem: `at most ${MAX_SUBSCRIBED_EVENTS} event types` };
  return { ok: true, events: unique };
}
