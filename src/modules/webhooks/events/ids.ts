import { createHash } from 'node:crypto';

/*
 * Webhook event ids are a function of what raised the event (the source event's id, or a ping's
 * id) and the webhook type: a reaction repeated after a crash, or a fan-out run again, makes the
 * same id, and consumers deduplicate on it (spec, Delivery rule 5).
 */

const digest = (sourceId: string, type: string): string => createHash('sha256').update(`webhook-event/${type}/${sourceId}`).digest('hex');

/** svc.event.v1 id: `evt_` + 32 lowercase hex. */
export function svcEventId(sourceId: string, type: string): string {
  return `evt_${digest(sourceId, type).slice(0, 32)}`;
}

/** Legacy id: a UUID shaped as version 4 (version nibble 4, variant 10xx), since the spec calls it a UUIDv4; its bits are derived, not random. */
export function legacyEventId(sourceId: string, type: string): string {
  const hex = digest(sourceId, type);
  const variant = ((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}
