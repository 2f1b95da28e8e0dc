import type { StoredEventType } from './versions.ts';

/**
 * One step up of an event type's payload: the data of version n, as version n + 1 has it. Pure: it
 * must not change its argument (several readers may share one stored payload) and reads nothing
 * but it (no clock, no lookups), so every reader, on every adapter, sees the same event.
 */
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

/**
 * A sent event stored before the AS4 receipt was kept (issue 38): no receipt is known for it,
 * which is what `as4: null` says (a sandbox send has none either).
 */
const withoutAs4Receipt: Upcaster = (data) => ({ ...data, as4: null });

/**
 * The steps from each old payload version to the current one (`EVENT_VERSIONS`):
 * `UPCASTERS[type][n - 1]` turns version n into n + 1, so a type at version v has v - 1 steps.
 * The event store applies them on every read (src/platform/eventstore/upcasting.ts), so deciders,
 * projectors and reactors only ever see the current shape of a type; a type whose version is above 1 and lacks a step fails the store's
 * construction, not the first read of an old event.
 */
export const UPCASTERS: { readonly [Type in StoredEventType]?: readonly Upcaster[] } = {
  PeppolMessageSent: [withoutAs4Receipt],
  SapiDocumentSent: [withoutAs4Receipt],
};
