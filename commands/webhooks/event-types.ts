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

/** `events` as sent (a comma-separated string) to the stored list, or the problem with it. */
export function resolveEventTypes(events: string | null): { ok: true; events: string[] } | { ok: false; problem: string } {
  if (events === null) return { ok: true, events: [...DEFAULT_EVENT_TYPES] };
  const names = events.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) return { ok: false, problem: 'events is a comma-separated list of event types without empty entries' };
  const bad = names.find((name) => !EVENT_NAME.test(name));
  if (bad !== undefined) return { ok: false, problem: `${JSON.stringify(bad)} is not an event type (such as invoice.delivered)` };
  const unique = [...new Set(names)];
  if (unique.length > MAX_SUBSCRIBED_EVENTS) return { ok: false, problem: `at most ${MAX_SUBSCRIBED_EVENTS} event types` };
  return { ok: true, events: unique };
}
